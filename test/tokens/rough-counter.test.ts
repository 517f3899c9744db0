import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import type { Part } from '../../src/model/part.js';
import { DEFAULT_COUNTING_OPTIONS } from '../../src/tokens/counting-options.js';
import { estimateTextTokens } from '../../src/tokens/estimate-text-tokens.js';
import { ROUGH_WEIGHTS } from '../../src/tokens/rough-calibration.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { message, PATHOLOGICAL, say, transcriptOf } from './helpers.js';

describe('estimateTextTokens', () => {
  it('is zero only for the empty text', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens(' ')).toBe(1);
    expect(estimateTextTokens('.')).toBe(1);
  });

  it('prices a common word at about one token', () => {
    expect(estimateTextTokens('hello')).toBe(1);
    expect(estimateTextTokens('hello world, this is a test')).toBeGreaterThanOrEqual(6);
    expect(estimateTextTokens('hello world, this is a test')).toBeLessThanOrEqual(9);
  });

  it('finds JSON denser than prose of the same length', () => {
    const prose = 'The agent read the configuration file and then ran the test suite again. '.repeat(20);
    const json = JSON.stringify(
      Array.from({ length: 40 }, (_, index) => ({
        id: index,
        ok: index % 2 === 0,
        path: `/src/f${index}.ts`,
      })),
    ).slice(0, prose.length);
    expect(estimateTextTokens(json) / json.length).toBeGreaterThan(
      1.5 * (estimateTextTokens(prose) / prose.length),
    );
  });

  it('prices base64 and hex runs near their measured density, not at four characters per token', () => {
    const base64 = PATHOLOGICAL.base64(40_000);
    expect(base64.length / estimateTextTokens(base64)).toBeGreaterThan(1.2);
    expect(base64.length / estimateTextTokens(base64)).toBeLessThan(1.7);
    const hex = PATHOLOGICAL.hex(40_000);
    expect(hex.length / estimateTextTokens(hex)).toBeGreaterThan(1.3);
    expect(hex.length / estimateTextTokens(hex)).toBeLessThan(2.2);
  });

  it('counts digits in groups of three', () => {
    expect(estimateTextTokens('123456789')).toBe(Math.round(3 * ROUGH_WEIGHTS.digitGroup));
  });

  it('is a sum over the text: concatenation changes the estimate by at most a couple of tokens', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (left, right) => {
        const joined = estimateTextTokens(left + right);
        const apart = estimateTextTokens(left) + estimateTextTokens(right);
        expect(Math.abs(joined - apart)).toBeLessThanOrEqual(3 + 0.02 * apart);
      }),
    );
  });
});

describe('createRoughCounter', () => {
  const counter = createRoughCounter();

  it('is named rough and not exact', () => {
    expect(counter.name).toBe('rough');
    expect(counter.exact).toBe(false);
  });

  it('charges a fixed cost per image whatever the payload size', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20_000 }), fc.boolean(), (data, inResult) => {
        const image: Part = { type: 'image', source: { kind: 'base64', data, mediaType: 'image/png' } };
        const part: Part = inResult ? { type: 'tool-result', callId: 'c', content: [image] } : image;
        const expected = inResult ? DEFAULT_COUNTING_OPTIONS.toolResultOverhead + 1500 : 1500;
        expect(counter.countPart(part)).toBe(expected);
      }),
    );
    const custom = createRoughCounter({ imageTokens: 85 });
    expect(
      custom.countPart({ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }),
    ).toBe(85);
  });

  it('counts a tool call by its name and arguments', () => {
    const args = JSON.stringify({ path: '/src/index.ts', content: 'export const answer = 42;\n'.repeat(50) });
    const tokens = counter.countPart({
      type: 'tool-call',
      id: 'call_1',
      name: 'write_file',
      arguments: args,
    });
    expect(tokens).toBe(
      DEFAULT_COUNTING_OPTIONS.toolCallOverhead + estimateTextTokens('write_file') + estimateTextTokens(args),
    );
  });

  it('counts reasoning text and encrypted reasoning data, not the signature', () => {
    const text = 'First I will inspect the failing test, then fix the import.';
    const signed = counter.countPart({ type: 'reasoning', text, signature: PATHOLOGICAL.base64(400) });
    expect(signed).toBe(estimateTextTokens(text));
    const data = PATHOLOGICAL.base64(400);
    expect(counter.countPart({ type: 'reasoning', text: '', data })).toBe(estimateTextTokens(data));
  });

  it('counts an opaque part by the JSON text of its value', () => {
    const value = { type: 'server_tool_use', name: 'web_search', input: { query: 'condense tokens' } };
    expect(counter.countPart({ type: 'opaque', kind: 'server_tool_use', value })).toBe(
      estimateTextTokens(JSON.stringify(value)),
    );
  });

  it('adds the framing overhead once per message and sums messages into the transcript', () => {
    const first = say('user', 'Please fix the failing test in src/app.ts.');
    const second = message(
      'assistant',
      { type: 'text', text: 'Looking at it now.' },
      { type: 'tool-call', id: 'c1', name: 'read_file', arguments: '{"path":"src/app.ts"}' },
    );
    const parts = (m: typeof second) => m.parts.reduce((sum, part) => sum + counter.countPart(part), 0);
    expect(counter.countMessage(first)).toBe(DEFAULT_COUNTING_OPTIONS.messageOverhead + parts(first));
    expect(counter.countMessage(message('assistant'))).toBe(DEFAULT_COUNTING_OPTIONS.messageOverhead);
    expect(counter.countTranscript(transcriptOf(first, second))).toBe(
      counter.countMessage(first) + counter.countMessage(second),
    );
    expect(counter.countTranscript(transcriptOf())).toBe(0);
  });

  it('accepts recalibrated weights and rejects unknown or negative ones', () => {
    const doubled = createRoughCounter({ weights: { word: ROUGH_WEIGHTS.word * 2 } });
    expect(doubled.countText('alpha beta gamma delta')).toBeGreaterThan(
      counter.countText('alpha beta gamma delta'),
    );
    expect(() => createRoughCounter({ weights: { wrod: 1 } as never })).toThrow(
      /unknown rough-estimator weight/,
    );
    expect(() => createRoughCounter({ weights: { word: -1 } })).toThrow(/non-negative/);
  });

  it('rejects counting options that are not non-negative integers, naming the option', () => {
    for (const bad of [{ imageTokens: -1 }, { messageOverhead: 1.5 }, { toolCallOverhead: Number.NaN }]) {
      try {
        createRoughCounter(bad);
        expect.unreachable();
      } catch (error) {
        expect(isCondenseError(error) && error.code).toBe('INVALID_OPTIONS');
        expect((error as Error).message).toContain(Object.keys(bad)[0]);
      }
    }
  });
});
