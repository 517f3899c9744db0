import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import type { Message } from '../../../src/model/message.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { anthropicWireProblems } from './wire-oracle.js';

const text = (role: Message['role'], value: string): Message => ({
  role,
  parts: [{ type: 'text', text: value }],
});

function encode(messages: Message[]): { system?: unknown; messages: { role: string; content: unknown }[] } {
  return anthropicCodec.encode({ messages }) as {
    system?: unknown;
    messages: { role: string; content: unknown }[];
  };
}

describe('encoding transcripts from other formats as Anthropic requests', () => {
  it('moves leading system messages to the top-level system prompt, joined by a blank line', () => {
    const wire = encode([text('system', 'rules'), text('system', 'more rules'), text('user', 'hi')]);
    expect(wire).toEqual({ system: 'rules\n\nmore rules', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('turns a mid-conversation system message into user text inside <system-reminder> tags', () => {
    const wire = encode([
      text('user', 'hi'),
      text('assistant', 'hello'),
      text('system', 'be brief'),
      text('user', 'next'),
    ]);
    expect(wire.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nbe brief\n</system-reminder>' },
        { type: 'text', text: 'next' },
      ],
    });
    expect(anthropicWireProblems(wire)).toEqual([]);
    const back = anthropicCodec.decode(wire).value;
    expect(verifyTranscript(back, { provider: 'anthropic' })).toEqual([]);
  });

  it('writes reasoning without a signature as <think> text and keeps signed and redacted reasoning', () => {
    const wire = encode([
      text('user', 'q'),
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'from another provider' },
          { type: 'reasoning', text: 'signed', signature: 's' },
          { type: 'reasoning', text: '', data: 'enc' },
          { type: 'text', text: 'a' },
        ],
      },
    ]);
    expect(wire.messages[1]?.content).toEqual([
      { type: 'text', text: '<think>\nfrom another provider\n</think>' },
      { type: 'thinking', thinking: 'signed', signature: 's' },
      { type: 'redacted_thinking', data: 'enc' },
      { type: 'text', text: 'a' },
    ]);
  });

  it('drops a message left empty and merges the neighbours it separated', () => {
    const wire = encode([
      text('user', 'a'),
      { role: 'assistant', parts: [{ type: 'text', text: '  ' }] },
      text('user', 'b'),
    ]);
    expect(wire.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('merges consecutive messages of the same role so roles alternate', () => {
    const wire = encode([
      text('user', 'a'),
      text('user', 'b'),
      text('assistant', 'c'),
      text('assistant', 'd'),
    ]);
    expect(wire.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(anthropicWireProblems(wire)).toEqual([]);
  });

  it('opens with a short user turn when the conversation starts with the assistant', () => {
    const wire = encode([text('system', 's'), text('assistant', 'I start')]);
    expect(wire.messages).toEqual([
      { role: 'user', content: '(continued)' },
      { role: 'assistant', content: 'I start' },
    ]);
  });

  it('keeps image sources and guesses a missing base64 media type from the data', () => {
    const wire = encode([
      {
        role: 'user',
        parts: [
          { type: 'image', source: { kind: 'base64', data: '/9j/4AAQ' } },
          { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
        ],
      },
    ]);
    expect(wire.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
    ]);
  });

  it('writes opaque parts of other formats as a placeholder and drops empty text', () => {
    const wire = encode([
      {
        role: 'user',
        parts: [
          { type: 'text', text: '' },
          { type: 'opaque', kind: 'input_audio', value: { type: 'input_audio' } },
        ],
      },
    ]);
    expect(wire.messages[0]?.content).toEqual([{ type: 'text', text: '[input_audio omitted]' }]);
  });

  it('ignores the openai codec’s meta (no OpenAI keys leak into Anthropic blocks)', () => {
    const wire = encode([
      {
        role: 'user',
        parts: [{ type: 'text', text: 'hi', meta: { openai: { extra: { name: 'x' } } } }],
        meta: { codec: { openai: { extra: { name: 'alice' } } } },
      },
    ]);
    expect(wire).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  });
});

describe('blank text from other formats', () => {
  it('leaves out whitespace-only text blocks and system prompts, which Anthropic rejects', () => {
    const wire = anthropicCodec.encode({
      messages: [text('system', '  '), text('user', 'q'), text('assistant', '\n'), text('user', 'again')],
    });
    expect(wire).toEqual({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'q' },
            { type: 'text', text: 'again' },
          ],
        },
      ],
    });
  });
});
