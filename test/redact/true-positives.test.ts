import { describe, expect, it } from 'vitest';
import { redactText, SECRET_KINDS } from '../../src/redact/index.js';
import { FAKE } from './fixtures.js';
import { hiddenPart, POSITIVES } from './positives.js';

const ALL = POSITIVES;

describe('true positives', () => {
  it.each(ALL)('catches $kind: $name', ({ text, kind, secrets }) => {
    const result = redactText(text);
    for (const secret of secrets) expect(result.text).not.toContain(hiddenPart(secret));
    expect(result.findings.map((finding) => finding.kind)).toContain(kind);
  });

  it('has a realistic example for every built-in kind', () => {
    const covered = new Set(ALL.map((positive) => positive.kind));
    expect(SECRET_KINDS.filter((kind) => !covered.has(kind))).toEqual([]);
  });

  it('reports offsets that point at the secret in the input', () => {
    for (const { text, secrets } of ALL) {
      const { findings } = redactText(text);
      for (const secret of secrets) {
        const at = text.indexOf(secret);
        expect(
          findings.some((finding) => finding.start <= at && finding.end >= at + Math.min(secret.length, 8)),
        ).toBe(true);
      }
    }
  });

  it('never puts a secret in a finding', () => {
    for (const { text } of ALL) {
      for (const finding of redactText(text).findings)
        expect(Object.keys(finding).sort()).toEqual(['end', 'kind', 'start']);
    }
  });
});

describe('authorization values with parameters', () => {
  it('masks a whole Digest value quoted with the other kind of quote', () => {
    const text = `headers = {'Authorization': 'Digest username="bob", nonce="${FAKE.hex32}", response="${FAKE.hex40}"'}`;
    const { text: out } = redactText(text);
    expect(out).not.toContain(FAKE.hex32);
    expect(out).not.toContain(FAKE.hex40);
    expect(out.endsWith("'}")).toBe(true);
  });
});
