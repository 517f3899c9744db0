import fc from 'fast-check';
import { describe, it } from 'vitest';
import { builtinRules, redactText } from '../../src/redact/index.js';
import { ADVERSARIAL_SEEDS, adversarialInputs } from './adversarial.js';

// A quadratic rule needs ~4·10^10 steps on 200 000 characters and times the test out; a linear one takes
// milliseconds. Nothing here reads a clock: finishing is the assertion (speed figures live in the bench).
const SIZE = 200_000;
const INPUTS = adversarialInputs(SIZE);

describe('linear time on adversarial input', () => {
  for (const rule of builtinRules()) {
    it(`rule ${rule.name} finishes on every adversarial input`, () => {
      for (const { text } of INPUTS) rule.find(text, []);
    });
  }

  it('the whole pipeline finishes on every adversarial input', () => {
    for (const { text } of INPUTS) redactText(text);
  });

  it('finishes on random mixtures of rule prefixes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ADVERSARIAL_SEEDS), { minLength: 1, maxLength: 6 }),
        (seeds) => {
          const unit = seeds.join('');
          redactText(unit.repeat(Math.ceil(SIZE / unit.length)));
        },
      ),
      { numRuns: 40 },
    );
  });
});
