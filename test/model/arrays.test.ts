import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendAll, maxOf, minOf, Queue, runStarts } from '../../src/model/arrays.js';

// Past about 125,000 elements, spreading into push, Math.min or Math.max throws a RangeError.
const HUGE = 300_000;

describe('array helpers for input-sized lists', () => {
  it('append every item in order, however many there are', () => {
    const target = [-1];
    const items = Array.from({ length: HUGE }, (_, index) => index);
    appendAll(target, items);
    expect(target).toHaveLength(HUGE + 1);
    expect(target[0]).toBe(-1);
    expect(target[1]).toBe(0);
    expect(target.at(-1)).toBe(HUGE - 1);
  });

  it('find the smallest and largest of any number of values, as Math.min and Math.max do', () => {
    const values = Array.from({ length: HUGE }, (_, index) => (index * 7919) % HUGE);
    expect(minOf(values)).toBe(0);
    expect(maxOf(values)).toBe(HUGE - 1);
    expect(minOf([3, -2.5, 9])).toBe(Math.min(3, -2.5, 9));
    expect(maxOf([3, -2.5, 9])).toBe(Math.max(3, -2.5, 9));
    expect(minOf([])).toBe(Math.min());
    expect(maxOf([])).toBe(Math.max());
  });
});

describe('Queue', () => {
  type Operation = 'push' | 'take' | 'takeLast' | 'takeAll';
  const operations = fc.array(
    fc.oneof(
      { arbitrary: fc.constant<Operation>('push'), weight: 6 },
      { arbitrary: fc.constantFrom<Operation>('take', 'takeLast', 'takeAll'), weight: 3 },
    ),
    { maxLength: 3000 },
  );

  it('behaves as an array used with push, shift, pop and splice(0) (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 5 }), operations, (initial, steps) => {
        const queue = new Queue(initial);
        const model = [...initial];
        steps.forEach((step, index) => {
          if (step === 'push') {
            queue.push(index);
            model.push(index);
          } else if (step === 'take') expect(queue.take()).toBe(model.shift());
          else if (step === 'takeLast') expect(queue.takeLast()).toBe(model.pop());
          else expect(queue.takeAll()).toEqual(model.splice(0));
          expect(queue.size).toBe(model.length);
        });
        expect([...queue]).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });

  it('gives back 300,000 items in order', () => {
    const queue = new Queue(Array.from({ length: HUGE }, (_, index) => index));
    let expected = 0;
    for (let item = queue.take(); item !== undefined; item = queue.take()) expect(item).toBe(expected++);
    expect(expected).toBe(HUGE);
    expect(queue.size).toBe(0);
  });
});

describe('runStarts', () => {
  it('says whether every item of a span is in a run exactly as checking each would (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 20 }), fc.nat(), fc.nat(), (flags, a, b) => {
        fc.pre(flags.length > 0);
        const from = a % flags.length;
        const to = from + (b % (flags.length - from));
        const starts = runStarts(flags, (flag) => flag);
        expect((starts[to] as number) <= from).toBe(flags.slice(from, to + 1).every((flag) => flag));
      }),
      { numRuns: 1000 },
    );
  });
});
