import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMasked, maskSecret, REDACTED, REDACTED_PRIVATE_KEY, redactText } from '../../src/redact/index.js';
import { secretBearingText } from './generators.js';

describe('idempotence', () => {
  it('redacting redacted text changes nothing and finds nothing', () => {
    fc.assert(
      fc.property(secretBearingText, (text) => {
        const once = redactText(text);
        const twice = redactText(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.findings).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('holds in code-file mode', () => {
    fc.assert(
      fc.property(secretBearingText, (text) => {
        const once = redactText(text, { codeFile: true });
        expect(redactText(once.text, { codeFile: true }).text).toBe(once.text);
      }),
      { numRuns: 500 },
    );
  });

  it('findings are disjoint, ordered and inside the input', () => {
    fc.assert(
      fc.property(secretBearingText, (text) => {
        let previous = 0;
        for (const finding of redactText(text).findings) {
          expect(finding.start).toBeGreaterThanOrEqual(previous);
          expect(finding.end).toBeGreaterThan(finding.start);
          expect(finding.end).toBeLessThanOrEqual(text.length);
          previous = finding.end;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('text outside the findings is kept byte for byte', () => {
    fc.assert(
      fc.property(secretBearingText, (text) => {
        const { text: out, findings } = redactText(text);
        let cursor = 0;
        let rebuilt = '';
        for (const finding of findings) {
          rebuilt += text.slice(cursor, finding.start);
          cursor = finding.end;
        }
        rebuilt += text.slice(cursor);
        const kept = out.split(/«redacted(?: private key)?»|[\x21-\x7e]{6}…[\x21-\x7e]{4}/).join('');
        expect(kept.length).toBeLessThanOrEqual(rebuilt.length);
        expect(out.length === text.length || findings.length > 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('masks', () => {
  it('keeps 6 + 4 characters of long printable secrets and hides the rest', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcdefXYZ0123_-+/'), minLength: 24, maxLength: 200 }),
        (secret) => {
          const mask = maskSecret(secret, 'ends');
          expect(mask).toBe(`${secret.slice(0, 6)}…${secret.slice(-4)}`);
          expect(isMasked(mask)).toBe(true);
        },
      ),
    );
  });

  it('fully masks short secrets, passwords and anything that is not printable ASCII', () => {
    expect(maskSecret('short-secret-123', 'ends')).toBe(REDACTED);
    expect(maskSecret('a-very-long-password-that-is-still-a-password', 'full')).toBe(REDACTED);
    expect(maskSecret('ключ-ключ-ключ-ключ-ключ-ключ', 'ends')).toBe(REDACTED);
    expect(maskSecret('-----BEGIN PRIVATE KEY-----', 'marker')).toBe(REDACTED_PRIVATE_KEY);
  });

  it('recognises its own masks only', () => {
    expect(isMasked(REDACTED)).toBe(true);
    expect(isMasked(REDACTED_PRIVATE_KEY)).toBe(true);
    expect(isMasked('hunter2…')).toBe(false);
    expect(isMasked('sk-proj-abcdef…wxyz')).toBe(false);
  });
});
