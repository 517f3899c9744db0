/**
 * A value with its binary payloads reduced to their size and URLs to their text: what fingerprints and keys
 * hash. Hashing megabytes of image bytes per step would cost more than it finds; equality checks compare the
 * bytes themselves.
 */
export function plainValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value)) return { bytes: value.byteLength };
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) return value.map(plainValue);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]));
}
