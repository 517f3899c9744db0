import { describe, expect, it } from 'vitest';
import { memoByObject } from '../../src/model/memo-by-object.js';

describe('memoByObject', () => {
  it('computes once per key object, an undefined answer included', () => {
    const asked: object[] = [];
    const answer = memoByObject((key: { n: number }) => {
      asked.push(key);
      return key.n > 0 ? key.n * 2 : undefined;
    });
    const one = { n: 1 };
    const none = { n: 0 };
    expect([answer(one), answer(one), answer(none), answer(none)]).toEqual([2, 2, undefined, undefined]);
    expect(asked).toEqual([one, none]);
    expect(answer({ n: 1 })).toBe(2);
    expect(asked).toHaveLength(3);
  });
});
