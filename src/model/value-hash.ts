const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a (32-bit) fed with UTF-16 code units (those above 0xff as two bytes, so every character counts). Not a
 * cryptographic hash: it verifies that a reference still points at the content it was made from, it does not
 * protect against forgery.
 */
class Fnv1a {
  #hash = FNV_OFFSET;

  text(value: string): void {
    let hash = this.#hash;
    for (let index = 0; index < value.length; index++) {
      const unit = value.charCodeAt(index);
      hash = Math.imul(hash ^ (unit & 0xff), FNV_PRIME);
      if (unit > 0xff) hash = Math.imul(hash ^ (unit >>> 8), FNV_PRIME);
    }
    this.#hash = hash;
  }

  /**
   * A value in a canonical form: a type tag per value, strings prefixed by their length, object keys sorted,
   * `undefined` members left out. Equal JSON values feed the same units; different ones cannot collide by
   * shifting characters between neighbours. Nothing is serialised, so large outputs cost no copy.
   */
  value(value: unknown): void {
    if (typeof value === 'string') {
      this.text(`s${value.length}:`);
      this.text(value);
      return;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
      this.text(`${typeof value}:${value};`);
      return;
    }
    if (value === null || typeof value !== 'object') {
      this.text('null;');
      return;
    }
    if (ArrayBuffer.isView(value)) {
      // Binary payloads (AI SDK file parts) hash by their bytes, not as objects with one key per byte.
      const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      this.text(`b${bytes.length}:`);
      let hash = this.#hash;
      for (const byte of bytes) hash = Math.imul(hash ^ byte, FNV_PRIME);
      this.#hash = hash;
      return;
    }
    if (value instanceof URL) {
      this.value(value.href);
      return;
    }
    if (Array.isArray(value)) {
      this.text(`[${value.length}:`);
      for (const item of value) this.value(item);
      this.text(']');
      return;
    }
    const record = value as Record<string, unknown>;
    this.text('{');
    for (const key of Object.keys(record).sort()) {
      if (record[key] === undefined) continue;
      this.value(key);
      this.value(record[key]);
    }
    this.text('}');
  }

  digest(): string {
    return (this.#hash >>> 0).toString(16).padStart(8, '0');
  }
}

/** A running FNV-1a (32-bit) over text: `digest` gives the hash of everything fed so far, and more may follow. */
export function runningFnv1a(): { update(text: string): void; digest(): string } {
  const hash = new Fnv1a();
  return { update: (text) => hash.text(text), digest: () => hash.digest() };
}

/** FNV-1a (32-bit) of a string, as 8 lower-case hex digits. */
export function fnv1a(text: string): string {
  const hash = new Fnv1a();
  hash.text(text);
  return hash.digest();
}

/** The hash of a JSON-like value in its canonical form (key order and `undefined` members do not matter). */
export function valueHash(value: unknown): string {
  const hash = new Fnv1a();
  hash.value(value);
  return hash.digest();
}
