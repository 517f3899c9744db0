import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactWithPasses } from '../../src/redact/apply-candidates.js';
import type { Candidate } from '../../src/redact/candidate.js';
import { breakEscapeView, hasBreakEscapes } from '../../src/redact/escapes.js';
import { builtinRules, createRedactor, redactText } from '../../src/redact/index.js';
import { unmaskedPieces } from '../../src/redact/mask.js';
import { ResultCache } from '../../src/redact/result-cache.js';
import type { RedactRule, RuleTrigger } from '../../src/redact/rule.js';
import { TriggerScanner } from '../../src/redact/triggers.js';
import { forEachMatch, nameWindows } from '../../src/redact/windows.js';
import { addWrappedContinuations } from '../../src/redact/wrapped.js';
import { ADVERSARIAL_SEEDS } from './adversarial.js';
import { generateRedactionDataset } from './dataset.js';
import { secretBearingText } from './generators.js';

/** What redaction would do if every rule ran on the whole of every text: the reference for the fast paths. */
function reference(text: string, codeFile = false) {
  const rules = builtinRules().filter((rule) => !(codeFile && rule.noisy));
  return redactWithPasses(text, (input) => {
    const out: Candidate[] = [];
    const view = hasBreakEscapes(input) ? breakEscapeView(input) : input;
    for (const rule of rules) rule.find(view, out);
    addWrappedContinuations(view, out);
    return out.flatMap((candidate) => {
      const pieces = unmaskedPieces(input, candidate.start, candidate.end);
      return pieces.flatMap((start, index) => {
        if (index % 2 === 1) return [];
        let end = pieces[index + 1] as number;
        while (end > start && input[end - 1] === '\\') end--;
        if (end === start) return [];
        return [
          start === candidate.start && end === candidate.end ? candidate : { ...candidate, start, end },
        ];
      });
    });
  });
}

const seedSoup = fc
  .array(fc.constantFrom(...ADVERSARIAL_SEEDS, 'Bearer ', 'abc123DEF456ghi789jkl012', '\n', ' '), {
    maxLength: 30,
  })
  .map((parts) => parts.join(''));

describe('trigger scan and name windows', () => {
  it('find exactly what running every rule on the whole text finds', () => {
    fc.assert(
      fc.property(fc.oneof(secretBearingText, seedSoup), fc.boolean(), (text, codeFile) => {
        expect(redactText(text, { codeFile })).toEqual(reference(text, codeFile));
      }),
      { numRuns: 2000 },
    );
  });

  it('agree with the reference on a generated agent dataset', () => {
    const lines = generateRedactionDataset(400_000, 3).split('\n');
    for (const line of lines) {
      for (const text of Object.values(JSON.parse(line || '{"x":""}')).flatMap(strings))
        expect(redactText(text)).toEqual(reference(text));
    }
  });

  it('fire every rule that finds something in a text', () => {
    fc.assert(
      fc.property(secretBearingText, (text) => {
        const rules = builtinRules();
        const scan = new TriggerScanner(rules).scan(text);
        rules.forEach((rule, index) => {
          const found: Candidate[] = [];
          rule.find(text, found);
          if (found.length > 0) expect(scan.runs(index, rule)).toBe(true);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('fire exactly the triggers that match after a boundary, or after their own character', () => {
    const rules = builtinRules();
    const scanner = new TriggerScanner(rules);
    const pieces = fc.constantFrom(
      ...ADVERSARIAL_SEEDS,
      ...[
        'sk-',
        'sk',
        'se',
        'secret',
        'secret_',
        'ghp_',
        'github_pat_',
        'glpat-',
        'gl',
        'xoxb-',
        'AKIA',
        'AIza',
      ],
      ...['ya29.', 'GOCSPX-', 'hf_', 'eyJ', 'PRIVATE KEY', 'private_key', 'password ', 'password', '_auth'],
      ...['curl', 'mysql', 'htpasswd', 'SG.', 'SECRET-KEY-1', 'rk_live_', `SK${'0a'.repeat(16)}`, 'Mab'],
      ...[
        '://u@',
        ':\\/\\/u@',
        '?token=',
        '&access_token=',
        '#ID_TOKEN=',
        '?',
        '&',
        '#',
        ':',
        'Ab1'.repeat(12),
      ],
      ...['s', 'a', 'M', 'x', '0', '_', '-', '.', ' ', '\n', '"', '\\', 'é', '\u2028', 'é_auth'],
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        const scan = scanner.scan(text);
        rules.forEach((rule, ruleIndex) => {
          const scope = scan.scope(ruleIndex, undefined);
          (rule.triggers ?? []).forEach((trigger, index) => {
            expect(scope.fired(index), `${rule.name} ${JSON.stringify(trigger)}`).toBe(
              triggerOccurs(text, trigger, rule.caseless === true, rule.triggers ?? []),
            );
          });
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('reject a trigger that could start with nothing', () => {
    const rule: RedactRule = { name: 'bad', noisy: false, triggers: ['(?:a)?b'], find: () => {} };
    expect(() => new TriggerScanner([rule])).toThrow(/must start with/);
  });
});

describe('forEachMatch', () => {
  it('visits the matches of a line-local pattern that start in the windows, as a whole-text scan does', () => {
    const regex = /(?<![\w-])([a-z]+)=/g;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a=1', 'key=2', 'x', ' ', '\n', 'token=', '-b='), { maxLength: 40 }),
        (parts) => {
          const text = parts.join('');
          const windows = nameWindows(text);
          const whole: number[] = [];
          forEachMatch(regex, text, undefined, (_match, start) => {
            if (inWindows(windows, start)) whole.push(start);
            return undefined;
          });
          const windowed: number[] = [];
          forEachMatch(regex, text, windows, (_match, start) => {
            windowed.push(start);
            return undefined;
          });
          expect(windowed).toEqual(whole);
        },
      ),
    );
  });
});

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function inWindows(windows: readonly number[], pos: number): boolean {
  for (let index = 0; index < windows.length; index += 2)
    if (pos >= (windows[index] as number) && pos <= (windows[index + 1] as number)) return true;
  return false;
}

describe('the result cache', () => {
  it('answers only for the very same text, and forgets the oldest past its bound', () => {
    const cache = new ResultCache(1_000);
    const base = 'a'.repeat(300);
    const other = `${'a'.repeat(100)}b${'a'.repeat(199)}`;
    const result = { text: base, findings: [] };
    cache.set(base, result);
    expect(cache.get(base)).toBe(result);
    expect(cache.get(other)).toBeUndefined();
    for (let index = 0; index < 4; index++) cache.set(`${index}${'c'.repeat(299)}`, result);
    expect(cache.get(base)).toBeUndefined();
    expect(cache.get('short')).toBeUndefined();
  });

  it('keeps the texts set last within its bound, one set again counting as new', () => {
    // Three texts of 300 fit in 1,000; the fingerprint (length, head, tail) of `a…a` is shared by every
    // `mid` below, so each replaces the one before.
    const cache = new ResultCache(1_000);
    const text = (index: number) => `${index}${'c'.repeat(299)}`;
    const mid = (index: number) => `${'a'.repeat(100)}${index % 10}${'a'.repeat(199)}`;
    const result = { text: '', findings: [] };
    for (let round = 0; round < 5_000; round++) {
      cache.set(text(0), result);
      cache.set(mid(round), result);
      cache.set(text(1 + (round % 7)), result);
    }
    const last = 1 + (4_999 % 7);
    expect(cache.get(text(last))).toBe(result);
    expect(cache.get(mid(4_999))).toBe(result);
    expect(cache.get(text(0))).toBe(result);
    expect(cache.get(mid(4_998))).toBeUndefined();
    for (let index = 1; index <= 7; index++)
      if (index !== last) expect(cache.get(text(index))).toBeUndefined();
  });

  it('gives a redactor the same answer for a text it has seen', () => {
    const redactor = createRedactor();
    const text = `${'x '.repeat(200)}export API_TOKEN=${'Ab1'.repeat(14)}`;
    expect(redactor.text(text)).toEqual(redactor.text(text));
    expect(redactor.text(text).text).not.toContain('Ab1Ab1Ab1Ab1Ab1');
  });
});

/**
 * Whether a trigger occurs as the scan defines it, position by position: a plain trigger at the start or after a
 * character that is not an ASCII letter or digit; an `after` one where any `after` trigger of its rule's case
 * mode begins (after its own character or another's: the scan tests a group together).
 */
function triggerOccurs(
  text: string,
  trigger: RuleTrigger,
  caseless: boolean,
  siblings: readonly RuleTrigger[],
): boolean {
  const flags = caseless ? 'iy' : 'y';
  if (typeof trigger === 'string') {
    const sticky = new RegExp(trigger, flags);
    for (let pos = 0; pos < text.length; pos++) {
      if (pos > 0 && /[A-Za-z0-9]/.test(text[pos - 1] ?? '')) continue;
      sticky.lastIndex = pos;
      if (sticky.test(text)) return true;
    }
    return false;
  }
  const afters = new Set(siblings.flatMap((sibling) => (typeof sibling === 'string' ? [] : [sibling.after])));
  const sticky = new RegExp(trigger.pattern, flags);
  for (let pos = 1; pos < text.length; pos++) {
    if (!afters.has(text[pos - 1] ?? '')) continue;
    sticky.lastIndex = pos;
    if (sticky.test(text)) return true;
  }
  return false;
}
