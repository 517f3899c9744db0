/** A deterministic source of numbers in [0, 1), like `Math.random` but reproducible from a seed. */
export type RandomSource = () => number;

/** 32-bit FNV-1a of a string, so text seeds work as well as numbers. */
function hashSeed(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A seeded pseudo-random generator (mulberry32: 32-bit state, full period, good enough for sampling a dataset;
 * not for anything secret). The same seed always gives the same sequence, on every platform.
 */
export function createSeededRandom(seed: number | string): RandomSource {
  let state = hashSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The indices of a `percent` sample of `count` entries, in their original order: `max(1, ⌊count × percent /
 * 100⌋)` distinct indices (none when there are no entries), drawn by a partial Fisher–Yates shuffle.
 */
export function sampleIndices(count: number, percent: number, random: RandomSource): number[] {
  if (count <= 0) return [];
  const size = Math.min(count, Math.max(1, Math.floor((count * percent) / 100)));
  if (size === count) return Array.from({ length: count }, (_, index) => index);
  const pool = Array.from({ length: count }, (_, index) => index);
  for (let index = 0; index < size; index++) {
    const pick = index + Math.floor(random() * (count - index));
    const swap = pool[index] as number;
    pool[index] = pool[pick] as number;
    pool[pick] = swap;
  }
  return pool.slice(0, size).sort((left, right) => left - right);
}
