import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import type { Part } from '../../src/model/part.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { redactTranscript } from '../../src/redact/index.js';
import { FAKE } from './fixtures.js';

/** A message carrying an origin the way codecs decode it: the wire value and the very parts array. */
function decoded(role: Message['role'], parts: Part[], extra: Partial<Message> = {}): Message {
  const wire = { role, parts: structuredClone(parts) };
  return { role, parts, ...extra, meta: { ...extra.meta, origin: { format: 'openai', wire, parts } } };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function sample(): Transcript {
  const messages: Message[] = [
    decoded('system', [{ type: 'text', text: 'You are a coding agent.' }]),
    decoded('user', [{ type: 'text', text: `deploy with token ${FAKE.githubClassic}` }]),
    decoded('assistant', [
      {
        type: 'reasoning',
        text: `I will export DB_PASSWORD=Reason-Pw-1 first`,
        signature: 'c2lnbmF0dXJl',
        data: 'ZW5jcnlwdGVk',
      },
      {
        type: 'tool-call',
        id: 'call_1',
        name: 'bash',
        arguments: JSON.stringify({ command: `curl -H "Authorization: Bearer ${FAKE.sessionId}" https://x` }),
      },
    ]),
    decoded('tool', [
      {
        type: 'tool-result',
        callId: 'call_1',
        content: [
          { type: 'text', text: `OPENAI_API_KEY=${FAKE.openai}\nHOME=/root` },
          {
            type: 'image',
            source: {
              kind: 'base64',
              data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
              mediaType: 'image/png',
            },
          },
          { type: 'opaque', kind: 'document', value: { title: 'creds', body: `password: Opaque-Pw-2` } },
        ],
      },
    ]),
    decoded('assistant', [{ type: 'text', text: 'Done. Nothing else to report.' }]),
    decoded('user', [
      {
        type: 'image',
        source: {
          kind: 'url',
          url: `https://b.s3.amazonaws.com/i.png?X-Amz-Signature=${FAKE.hex40}&X-Amz-Date=1`,
        },
      },
    ]),
    decoded('assistant', [{ type: 'text', text: 'Looks fine.' }], {
      meta: {
        codec: {
          'claude-code': { toolUseResult: { stdout: `token=${FAKE.npm}`, exitCode: 0 }, uuid: 'u-1' },
        },
      },
    }),
  ];
  return { messages, meta: { format: 'openai', origin: { format: 'openai', wire: [], messages } } };
}

describe('redactTranscript', () => {
  it('masks secrets in every kind of part and in codec metadata', () => {
    const { transcript } = redactTranscript(sample());
    const json = JSON.stringify(
      transcript.messages.map(({ role, parts, meta }) => ({ role, parts, codec: meta?.codec })),
    );
    for (const secret of [FAKE.githubClassic, FAKE.sessionId, FAKE.openai, FAKE.hex40, FAKE.npm])
      expect(json).not.toContain(secret.slice(6, -4));
    for (const secret of ['Reason-Pw-1', 'Opaque-Pw-2']) expect(json).not.toContain(secret);
  });

  it('locates findings by message, path and offsets in the string at that path', () => {
    const input = sample();
    const { findings } = redactTranscript(input);
    const where = findings.map((finding) => [finding.message, finding.path.join('.'), finding.kind]);
    expect(where).toEqual([
      [1, 'parts.0.text', 'github-token'],
      [2, 'parts.0.text', 'secret-assignment'],
      [2, 'parts.1.arguments.command', 'authorization-header'],
      [3, 'parts.0.content.0.text', 'openai-key'],
      [3, 'parts.0.content.2.value.body', 'secret-assignment'],
      [5, 'parts.0.source.url', 'url-query-secret'],
      [6, 'meta.codec.claude-code.toolUseResult.stdout', 'npm-token'],
    ]);
    const [first] = findings;
    const part = input.messages[1]?.parts[0];
    expect(part?.type === 'text' && first !== undefined ? part.text.slice(first.start, first.end) : '').toBe(
      FAKE.githubClassic,
    );
  });

  it('never mutates its input', () => {
    const input = deepFreeze(sample());
    const snapshot = structuredClone(input);
    redactTranscript(input);
    expect(input).toEqual(snapshot);
  });

  it('returns untouched messages as the same objects and retires the origin of changed ones', () => {
    const input = sample();
    const { transcript } = redactTranscript(input);
    for (const index of [0, 4]) expect(transcript.messages[index]).toBe(input.messages[index]);
    for (const index of [1, 2, 3, 5, 6]) {
      const message = transcript.messages[index];
      expect(message).not.toBe(input.messages[index]);
      expect(message?.meta?.origin).toBeUndefined();
      expect(message?.parts).not.toBe(input.messages[index]?.parts);
    }
    expect(transcript.messages[6]?.meta?.codec?.['claude-code']?.['uuid']).toBe('u-1');
  });

  it('keeps provider payloads: base64 images, reasoning signatures, encrypted reasoning', () => {
    const input = sample();
    const { transcript } = redactTranscript(input);
    const reasoning = transcript.messages[2]?.parts[0];
    expect(reasoning?.type === 'reasoning' && [reasoning.signature, reasoning.data]).toEqual([
      'c2lnbmF0dXJl',
      'ZW5jcnlwdGVk',
    ]);
    const imageOf = (message: Message | undefined) => {
      const result = message?.parts[0];
      return result?.type === 'tool-result' ? result.content[1] : undefined;
    };
    expect(imageOf(transcript.messages[3])).toBe(imageOf(input.messages[3]));
  });

  it('keeps tool-call arguments valid JSON and the transcript valid', () => {
    const input = sample();
    const { transcript } = redactTranscript(input);
    const call = transcript.messages[2]?.parts[1];
    expect(call?.type === 'tool-call' && JSON.parse(call.arguments).command).toContain(
      'Authorization: Bearer ',
    );
    expect(verifyTranscript(transcript)).toEqual(verifyTranscript(input));
  });

  it('returns the very transcript when there is nothing to redact', () => {
    const input: Transcript = { messages: [decoded('user', [{ type: 'text', text: 'hello' }])] };
    expect(redactTranscript(input).transcript).toBe(input);
  });

  it('drops the transcript origin only when transcript metadata changes', () => {
    const messages = [decoded('user', [{ type: 'text', text: 'hi' }])];
    const clean: Transcript = {
      messages,
      meta: {
        origin: { format: 'claude-code', wire: [], messages },
        codec: { 'claude-code': { side: [{ summary: 'ok' }] } },
      },
    };
    expect(redactTranscript(clean).transcript).toBe(clean);
    const dirty: Transcript = {
      messages,
      meta: {
        origin: { format: 'claude-code', wire: [], messages },
        codec: { 'claude-code': { side: [{ summary: `key ${FAKE.openai}` }] } },
      },
    };
    const { transcript, findings } = redactTranscript(dirty);
    expect(transcript.meta?.origin).toBeUndefined();
    expect(transcript.messages).not.toBe(messages);
    expect(transcript.messages[0]).toBe(messages[0]);
    expect(findings).toEqual([
      expect.objectContaining({ path: ['meta', 'codec', 'claude-code', 'side', 0, 'summary'] }),
    ]);
    expect(findings[0]?.message).toBeUndefined();
  });

  it('is idempotent', () => {
    const once = redactTranscript(sample()).transcript;
    const twice = redactTranscript(once);
    expect(twice.findings).toEqual([]);
    expect(twice.transcript).toBe(once);
  });
});
