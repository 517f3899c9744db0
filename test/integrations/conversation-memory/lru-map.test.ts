import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../support/property-seed.js';
import { LruMap } from '../../../src/integrations/conversation-memory/lru-map.js';

type Operation =
  | { readonly kind: 'set'; readonly key: number; readonly value: number }
  | { readonly kind: 'get' | 'peek' | 'has' | 'delete'; readonly key: number }
  | { readonly kind: 'getOrCreate'; readonly key: number; readonly value: number };

const key = fc.integer({ min: 0, max: 7 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.nat() }),
  fc.record({
    kind: fc.constantFrom('get' as const, 'peek' as const, 'has' as const, 'delete' as const),
    key,
  }),
  fc.record({ kind: fc.constant('getOrCreate' as const), key, value: fc.nat() }),
);

/** The reference: entries in an array, least recently used first. */
class Model {
  readonly entries: [number, number][] = [];
  readonly evicted: number[] = [];

  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  index(key: number): number {
    return this.entries.findIndex(([known]) => known === key);
  }

  touch(key: number): number | undefined {
    const at = this.index(key);
    if (at < 0) return undefined;
    const [entry] = this.entries.splice(at, 1) as [[number, number]];
    this.entries.push(entry);
    return entry[1];
  }

  set(key: number, value: number): void {
    const at = this.index(key);
    if (at >= 0) this.entries.splice(at, 1);
    this.entries.push([key, value]);
    while (this.entries.length > this.capacity)
      this.evicted.push((this.entries.shift() as [number, number])[0]);
  }
}

describe('LRU map', () => {
  it('behaves like a list ordered by last use, dropping the least recently used beyond capacity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.array(operation, { maxLength: 60 }),
        (capacity, operations) => {
          const evicted: number[] = [];
          const map = new LruMap<number, number>({
            capacity,
            onEvict: (evictedKey) => evicted.push(evictedKey),
          });
          const model = new Model(capacity);
          for (const op of operations) {
            switch (op.kind) {
              case 'set':
                map.set(op.key, op.value);
                model.set(op.key, op.value);
                break;
              case 'get':
                expect(map.get(op.key)).toBe(model.touch(op.key));
                break;
              case 'peek':
                expect(map.peek(op.key)).toBe(model.entries[model.index(op.key)]?.[1]);
                break;
              case 'has':
                expect(map.has(op.key)).toBe(model.index(op.key) >= 0);
                break;
              case 'delete': {
                const at = model.index(op.key);
                if (at >= 0) model.entries.splice(at, 1);
                expect(map.delete(op.key)).toBe(at >= 0);
                break;
              }
              case 'getOrCreate': {
                const known = model.touch(op.key);
                if (known === undefined) model.set(op.key, op.value);
                expect(map.getOrCreate(op.key, () => op.value)).toBe(known ?? op.value);
                break;
              }
            }
            expect([...map.entries()]).toEqual(model.entries);
            expect(map.size).toBeLessThanOrEqual(capacity);
          }
          expect(evicted).toEqual(model.evicted);
        },
      ),
    );
  });

  it('evicts the least recently used entry, not the oldest inserted, at capacity', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>({
      capacity: 2,
      onEvict: (evictedKey) => evicted.push(evictedKey),
    });
    map.set('a', 1).set('b', 2);
    map.get('a');
    map.peek('b');
    map.set('c', 3);
    expect([...map.entries()]).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    expect(evicted).toEqual(['b']);
  });

  it('calls the factory only for a key it does not hold, and not on delete or clear', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, object>({
      capacity: 3,
      onEvict: (evictedKey) => evicted.push(evictedKey),
    });
    let made = 0;
    const make = () => ({ made: ++made });
    const first = map.getOrCreate('k', make);
    expect(map.getOrCreate('k', make)).toBe(first);
    expect(made).toBe(1);
    map.delete('k');
    map.set('x', {});
    map.clear();
    expect(map.size).toBe(0);
    expect(evicted).toEqual([]);
  });
});
