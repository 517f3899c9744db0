import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTokenCounter } from '../../src/tokens/build-token-counter.js';
import { estimateTextTokens } from '../../src/tokens/estimate-text-tokens.js';

describe('a counter remembering the last long text', () => {
  it('counts every text of any sequence as counting it alone does: repeats, same-length variants, short texts', () => {
    const long = fc.string({ minLength: 1_000, maxLength: 1_100 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(long, fc.string({ maxLength: 20 })), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (texts, picks) => {
          // Same-length variants: each text with its last character changed, next to the text itself.
          const pool = texts.flatMap((text) => [
            text,
            `${text.slice(0, -1)}${text.endsWith('a') ? 'b' : 'a'}`,
          ]);
          let calls = 0;
          const counter = buildTokenCounter({
            name: 'rough',
            exact: false,
            countText: (text) => {
              calls++;
              return estimateTextTokens(text);
            },
          });
          for (const pick of picks) {
            const text = pool[pick % pool.length] as string;
            expect(counter.countText(text)).toBe(estimateTextTokens(text));
          }
          expect(calls).toBeLessThanOrEqual(picks.length);
        },
      ),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 200) },
    );
  });

  it('does not count a long text twice in a row', () => {
    let calls = 0;
    const counter = buildTokenCounter({
      name: 'rough',
      exact: false,
      countText: (text) => {
        calls++;
        return estimateTextTokens(text);
      },
    });
    const text = 'checkpoint line\n'.repeat(200);
    expect(counter.countText(text)).toBe(counter.countText(`${text}`));
    expect(calls).toBe(1);
  });
});
