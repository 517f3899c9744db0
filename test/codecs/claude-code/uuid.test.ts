import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freshUuid, hashHex, hashUuid, isUuid } from '../../../src/codecs/claude-code/uuid.js';

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];

/** FNV-1a of a text under one seed, one pass per seed: the definition the identifiers in written files keep. */
function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

describe('derived identifiers of synthesized Claude Code records', () => {
  it('hash every text exactly as four separate seeded FNV-1a passes do', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const expected = SEEDS.map((seed) => fnv1a(text, seed).toString(16).padStart(8, '0')).join('');
        expect(hashHex(text)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('keep the identifiers files already hold', () => {
    // Values the previous implementation gave: files written before must keep their identifiers.
    expect(hashHex('')).toBe('811c9dc5010001939e3779b985ebca6b');
    expect(hashUuid('session|[]')).toBe('e8a2e4d9-3402-4c1f-b32d-a7e56be55b77');
    expect(isUuid(hashUuid('x'))).toBe(true);
  });

  it('never hand out a UUID already used', () => {
    const first = hashUuid('a');
    const next = freshUuid('a', new Set([first]));
    expect(next).not.toBe(first);
    expect(isUuid(next)).toBe(true);
  });
});
