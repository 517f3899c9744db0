import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestKey } from '../../src/errors/closest-key.js';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { parseOptions } from '../../src/errors/parse-options.js';
import { parseYamlText } from '../../src/errors/yaml-text.js';

const TEXT = 'a: 1\nb:\n  c: 2\n  d:\n    - x\n    - e: 3\n';

describe('parseYamlText', () => {
  it('gives the value and the line of every key path the document has', () => {
    const parsed = parseYamlText(TEXT);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value).toEqual({ a: 1, b: { c: 2, d: ['x', { e: 3 }] } });
    expect(parsed.lineOf(['a'])).toBe(1);
    expect(parsed.lineOf(['b', 'c'])).toBe(3);
    expect(parsed.lineOf(['b', 'd', 1])).toBe(6);
    expect(parsed.lineOf(['b', 'd', 1, 'e'])).toBe(6);
  });

  it('answers nothing for a path the document does not have', () => {
    const parsed = parseYamlText(TEXT);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.lineOf(['z'])).toBeUndefined();
    expect(parsed.lineOf(['b', 'z'])).toBeUndefined();
    expect(parsed.lineOf(['a', 'c'])).toBeUndefined();
    expect(parsed.lineOf(['b', 'd', 7])).toBeUndefined();
  });

  it('returns the first syntax error with its line instead of throwing', () => {
    const parsed = parseYamlText('a: 1\nb: [1, 2\nc: 3\n');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.line).toBeGreaterThanOrEqual(2);
    expect(parsed.message).not.toContain('\n');
  });
});

describe('closestKey', () => {
  it('finds the key a typo, an abbreviation or another spelling meant', () => {
    expect(closestKey('target_max_tokns', ['target_max_tokens', 'summary_target_tokens'])).toBe(
      'target_max_tokens',
    );
    expect(closestKey('protect', ['protect_last_n', 'preset'])).toBe('protect_last_n');
    expect(closestKey('Context-Length', ['contextLength', 'threshold'])).toBe('contextLength');
    expect(closestKey('temperature', ['workers', 'suffix'])).toBeUndefined();
  });
});

describe('parseOptions with a YAML source', () => {
  it('names the line of the first wrong key and suggests the key it meant', () => {
    const parsed = parseYamlText('outer:\n  size: 3\n  colour: red\n');
    if (!parsed.ok) throw new Error(parsed.message);
    const schema = z.strictObject({
      outer: z.strictObject({ size: z.number(), color: z.string().optional() }),
    });
    try {
      parseOptions(schema, parsed.value, {
        noun: 'key',
        lineOf: parsed.lineOf,
        location: { file: 'x.yaml' },
      });
      throw new Error('expected INVALID_OPTIONS');
    } catch (error) {
      if (!isCondenseError(error)) throw error;
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.location).toEqual({ file: 'x.yaml', line: 3 });
      expect(error.message).toBe('outer: unknown key "colour" (did you mean "color"?)');
    }
  });
});
