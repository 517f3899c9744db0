import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversionLosses, describeLosses, type Loss } from '../../../src/codecs/convert/losses.js';
import { getCodec } from '../../../src/codecs/registry.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { transcriptArbitrary } from '../openai-chat/transcript-arbitrary.js';

const SOURCE: Transcript = {
  messages: [
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { kind: 'url', url: 'https://x/a.png' } },
      ],
    },
    {
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'signed', signature: 'sig' },
        { type: 'reasoning', text: 'plain' },
        { type: 'reasoning', text: '', data: 'encrypted' },
        { type: 'tool-call', id: 'functions.read:0', name: 'read', arguments: '{}' },
      ],
    },
    {
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          callId: 'functions.read:0',
          isError: true,
          content: [{ type: 'text', text: 'no such file' }],
        },
      ],
    },
    { role: 'system', parts: [{ type: 'text', text: 'be brief' }] },
    {
      role: 'assistant',
      parts: [{ type: 'opaque', kind: 'refusal', value: { type: 'refusal', refusal: 'no' } }],
    },
  ],
};

function counts(losses: readonly Loss[]): Record<string, number> {
  return Object.fromEntries(
    losses.map((loss) => [loss.kind === 'opaque-part' ? `opaque:${loss.what}` : loss.kind, loss.count]),
  );
}

describe('conversion losses', () => {
  it('says what OpenAI cannot hold: reasoning becomes <think> text, signatures and encrypted reasoning go, errors are marked', () => {
    expect(counts(conversionLosses(SOURCE, getCodec('openai')))).toEqual({
      'reasoning-as-text': 2,
      'reasoning-signature': 1,
      'encrypted-reasoning': 1,
      'tool-error-as-text': 1,
      'opaque:refusal': 1,
    });
  });

  it('says what Anthropic changes: unsigned reasoning as text, the id it rejects, a late system message', () => {
    expect(counts(conversionLosses(SOURCE, getCodec('anthropic')))).toEqual({
      'reasoning-as-text': 1,
      'tool-id-rewritten': 1,
      'system-prompt-moved': 1,
      'opaque:refusal': 1,
    });
  });

  it('says what ShareGPT and Claude Code cannot hold', () => {
    expect(counts(conversionLosses(SOURCE, getCodec('sharegpt')))).toEqual({
      'reasoning-signature': 1,
      'encrypted-reasoning': 1,
      image: 1,
      'tool-call-id': 1,
      'tool-error-as-text': 1,
      'opaque:refusal': 1,
    });
    expect(counts(conversionLosses(SOURCE, getCodec('claude-code')))).toMatchObject({
      'system-prompt': 1,
      'reasoning-as-text': 1,
      'tool-id-rewritten': 1,
    });
  });

  it('lists source fields left behind, and describes every loss in words', () => {
    const losses = conversionLosses(SOURCE, getCodec('ai-sdk'), { info: 1, 'message.agent': 3 });
    expect(losses.filter((loss) => loss.kind === 'source-field')).toHaveLength(2);
    const lines = describeLosses(losses, 'ai-sdk');
    expect(lines.join('\n')).toMatch(/1 × refusal part/);
    expect(lines.join('\n')).toMatch(/message\.agent \(3\)/);
  });

  it('is a pure function of the transcript and the capabilities: same answer, input untouched', () => {
    fc.assert(
      fc.property(
        transcriptArbitrary({ signedReasoning: true, errorFlags: true, groupedResults: true }),
        (transcript) => {
          const copy = structuredClone(transcript);
          for (const to of ['openai', 'anthropic', 'sharegpt', 'ai-sdk', 'claude-code'] as const) {
            const first = conversionLosses(transcript, getCodec(to));
            expect(conversionLosses(transcript, getCodec(to))).toEqual(first);
            expect(first.every((loss) => loss.count > 0)).toBe(true);
          }
          expect(transcript).toEqual(copy);
        },
      ),
      { numRuns: 50 },
    );
  });
});
