import { describe, expect, it } from 'vitest';
import { verifyTranscript } from '../../src/model/verify.js';
import { SummarizerError } from '../../src/summarizer/index.js';
import {
  assistantMessage,
  buildCodingSession,
  createMockSummarizer,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';

const counter = createRoughCounter();

describe('transcript builders', () => {
  it('build messages and tool pairs that verify', () => {
    const call = toolCall('Read', { file_path: 'a.ts' });
    const transcript = {
      messages: [userMessage('read a.ts'), assistantMessage('Reading.', call), toolResult(call, 'content')],
    };
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
    expect(call.arguments).toBe('{"file_path":"a.ts"}');
    expect(transcript.messages[2]?.parts[0]).toMatchObject({
      type: 'tool-result',
      callId: call.id,
      name: 'Read',
    });
  });

  it('derive a call id from the call alone, so builders are deterministic in any test order', () => {
    expect(toolCall('A').id).toBe(toolCall('A').id);
    expect(toolCall('A', { x: 1 }).id).not.toBe(toolCall('A', { x: 2 }).id);
    expect(toolCall('A').id).not.toBe(toolCall('B').id);
    expect(toolCall('A', {}, 'fixed').id).toBe('fixed');
  });

  it('build a deterministic coding session that verifies for every provider', () => {
    const session = buildCodingSession({ steps: 18 });
    expect(buildCodingSession({ steps: 18 })).toEqual(session);
    expect(session.messages).toHaveLength(1 + 1 + 18 * 2 + 2);
    expect(session.messages[0]?.role).toBe('system');
    for (const provider of ['generic', 'openai'] as const)
      expect(verifyTranscript(session, { provider })).toEqual([]);
    const results = session.messages
      .flatMap((message) => message.parts)
      .filter((part) => part.type === 'tool-result');
    expect(results.some((part) => part.isError === true)).toBe(true);
    expect(buildCodingSession({ system: false, finalRequest: 'done?' }).messages.at(-1)).toEqual(
      userMessage('done?'),
    );
  });
});

describe('mock summarizer', () => {
  const request = { messages: [userMessage('hi')], targetTokens: 100, counter };

  it('answers in order, repeats the last answer and records requests', async () => {
    const mock = createMockSummarizer({ replies: ['first', (req) => `second of ${req.messages.length}`] });
    expect((await mock.summarize(request)).text).toBe('first');
    expect((await mock.summarize(request)).text).toBe('second of 1');
    expect((await mock.summarize(request)).text).toBe('second of 1');
    expect(mock.requests).toHaveLength(3);
  });

  it('throws scripted errors and honours the signal', async () => {
    const failure = new SummarizerError({ failure: 'auth', message: 'bad key', retryable: false });
    const mock = createMockSummarizer({ replies: [failure] });
    await expect(mock.summarize(request)).rejects.toBe(failure);
    const controller = new AbortController();
    controller.abort();
    await expect(createMockSummarizer().summarize(request, { signal: controller.signal })).rejects.toThrow();
  });

  it('has a default answer and can pose as the extractive builder', async () => {
    const result = await createMockSummarizer({ kind: 'extractive' }).summarize(request);
    expect(result).toMatchObject({ source: 'extractive', calls: 0 });
    expect(result.text).toContain('mock checkpoint of 1 messages');
  });
});
