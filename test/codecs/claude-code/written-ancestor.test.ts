import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writtenAncestor } from '../../../src/codecs/claude-code/written-ancestor.js';

/** The walk the relinker made before issue 15, afresh for every question: the oracle. */
function referenceAncestor(
  gone: ReadonlyMap<string, string | null | undefined>,
  written: ReadonlySet<string>,
  parent: string | null | undefined,
): string | undefined {
  let current = parent;
  for (let steps = 0; typeof current === 'string' && steps <= gone.size; steps++) {
    if (written.has(current)) return current;
    current = gone.get(current);
  }
  return typeof current === 'string' && written.has(current) ? current : undefined;
}

const uuid = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const link = fc.oneof(uuid, fc.constant(null), fc.constant(undefined));

describe('writtenAncestor', () => {
  it('answers as a fresh walk does, chains, loops and a growing written set included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(uuid, link), { maxLength: 10 }),
        fc.array(uuid, { maxLength: 4 }),
        fc.array(fc.oneof(fc.record({ ask: link }), fc.record({ write: uuid })), { maxLength: 30 }),
        (links, initially, steps) => {
          const gone = new Map(links);
          const written = new Set(initially);
          const ancestor = writtenAncestor(gone, written);
          for (const step of steps) {
            if ('write' in step) written.add(step.write);
            else expect(ancestor(step.ask)).toBe(referenceAncestor(gone, written, step.ask));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('walks a long dropped chain once for all the records hanging from it', () => {
    const count = 200_000;
    const gone = new Map<string, string>();
    for (let index = 1; index < count; index++) gone.set(`a${index}`, `a${index - 1}`);
    const ancestor = writtenAncestor(gone, new Set(['a0']));
    let linked = 0;
    for (let index = count - 1; index >= 0; index--) if (ancestor(`a${index}`) === 'a0') linked++;
    expect(linked).toBe(count);
  });
});
