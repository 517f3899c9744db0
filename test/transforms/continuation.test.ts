import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isContinuation } from '../../src/transforms/user-turns.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 400) };
const CONTINUATION =
  /^(?:please\s+)?(?:continue|go on|go ahead|keep going|carry on|proceed|resume|yes|yep|yeah|y|ok|okay|sure|do it|lgtm|sounds good|looks good|perfect|great|thanks|thank you|excellent|nice|cool)\b/i;

/** The oracle: `isContinuation` before it split no further than the word limit. */
function oracle(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || !CONTINUATION.test(trimmed)) return false;
  return trimmed.split(/\s+/).length <= 8 && !trimmed.includes('\n');
}

const WORDS = ['ok', 'Yes', 'please', 'go ahead', 'thanks!', 'and', 'fix', 'it', 'now', 'é', '\ud83d\ude00'];
const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\v'];

describe('isContinuation: the word limit', () => {
  it('answers as splitting every word did', () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SPACES)), { maxLength: 14 })
      .map((pairs) => pairs.map(([word, space]) => `${word}${space}`).join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 40 })), (value) => {
        expect(isContinuation(value)).toBe(oracle(value));
      }),
      RUNS,
    );
  });

  it('answers long prompts', () => {
    for (const value of ['ok '.repeat(50_000), `thanks${' x'.repeat(7)}`, `thanks${' x'.repeat(8)}`, ''])
      expect(isContinuation(value)).toBe(oracle(value));
  });
});
