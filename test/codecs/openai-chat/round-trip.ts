import { expect } from 'vitest';
import type { Codec } from '../../../src/codecs/codec.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Transcript } from '../../../src/model/transcript.js';

/**
 * Decodes `wire`, checks that encoding gives the same value back both with origins (the very object) and
 * without (re-encoded from parts and meta), and returns the decoded transcript.
 */
export function expectRoundTrip(codec: Codec, wire: unknown): Transcript {
  const { value } = codec.decode(wire);
  expect(codec.encode(value)).toBe(wire);
  expect(codec.encode(stripOrigins(value))).toEqual(wire);
  return value;
}
