import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { createRedactor, redactJsonText, redactJsonValue } from '../../src/redact/index.js';
import { FAKE, fakePem } from './fixtures.js';
import { secretArb } from './generators.js';

const redactor = createRedactor();

describe('redactJsonText', () => {
  it('changes only the strings that hold secrets, byte for byte elsewhere', () => {
    const args = `{"command":  "export GITHUB_TOKEN=${FAKE.githubClassic} && gh pr list",\n "timeout": 120000, "big": 12345678901234567890, "note": "caf\\u00e9"}`;
    const { value, findings } = redactJsonText(args, redactor);
    expect(() => JSON.parse(value)).not.toThrow();
    expect(value).toContain('"timeout": 120000, "big": 12345678901234567890, "note": "caf\\u00e9"}');
    expect(value.startsWith('{"command":  "export GITHUB_TOKEN=')).toBe(true);
    expect(value).not.toContain(FAKE.githubClassic);
    expect(findings.map((finding) => [finding.kind, finding.path])).toEqual([['github-token', ['command']]]);
  });

  it('masks whole values under secret keys, with their JSON path', () => {
    const args = JSON.stringify({
      user: 'bob',
      password: 'Hunter2-Xy',
      nested: { deep: [{ api_key: FAKE.hex32 }] },
      headers: ['Content-Type: text/plain', `Authorization: Bearer ${FAKE.sessionId}`],
    });
    const { value, findings } = redactJsonText(args, redactor);
    const parsed = JSON.parse(value);
    expect(parsed.user).toBe('bob');
    expect(parsed.password).toBe('«redacted»');
    expect(parsed.nested.deep[0].api_key).toBe(`${FAKE.hex32.slice(0, 6)}…${FAKE.hex32.slice(-4)}`);
    expect(parsed.headers[1]).toBe(
      `Authorization: Bearer ${FAKE.sessionId.slice(0, 6)}…${FAKE.sessionId.slice(-4)}`,
    );
    expect(findings.map((finding) => finding.path)).toEqual([
      ['password'],
      ['nested', 'deep', 0, 'api_key'],
      ['headers', 1],
    ]);
  });

  it('sees through JSON escapes: a key file written by a tool call becomes a marker', () => {
    const args = JSON.stringify({ file_path: '/tmp/key.pem', content: `${fakePem('RSA PRIVATE KEY')}\n` });
    const parsed = JSON.parse(redactJsonText(args, redactor).value);
    expect(parsed.content).toBe('«redacted private key»\n');
    expect(parsed.file_path).toBe('/tmp/key.pem');
  });

  it('redacts text that is not JSON as plain text', () => {
    const { value, findings } = redactJsonText(`{"broken": PASSWORD=Pw-123456`, redactor, [
      'parts',
      0,
      'arguments',
    ]);
    expect(value).toBe('{"broken": PASSWORD=«redacted»');
    expect(findings[0]?.path).toEqual(['parts', 0, 'arguments']);
  });

  it('keeps a __proto__ key an own property when its value is redacted', () => {
    const value = JSON.parse(`{"__proto__": "PASSWORD=Proto-Pw-1", "x": 1}`);
    const result = redactJsonValue(value, redactor).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('PASSWORD=«redacted»');
  });

  it('returns the very input when nothing is found', () => {
    const args = '{"path": "src/index.ts", "limit": 10}';
    expect(redactJsonText(args, redactor).value).toBe(args);
  });

  it('agrees with redactJsonValue and always yields valid JSON', () => {
    const leaf = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      secretArb,
      secretArb.map((secret) => `PASSWORD=${secret}`),
    );
    const key = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('password', 'api_key', 'token', 'env', 'max_tokens'),
    );
    const tree = fc.letrec<{ node: JsonValue }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf as fc.Arbitrary<JsonValue>,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : 0);
        const viaText = redactJsonText(text, redactor);
        const viaValue = redactJsonValue(value, redactor);
        // Compared as JSON: the text form cannot tell -0 from 0, which fc.jsonValue generates.
        expect(JSON.parse(viaText.value)).toEqual(JSON.parse(JSON.stringify(viaValue.value)));
        expect(viaText.findings.length).toBe(viaValue.findings.length);
      }),
      { numRuns: 400 },
    );
  });
});
