import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import type { Message } from '../../src/model/message.js';
import { DEFAULT_COUNTING_OPTIONS } from '../../src/tokens/counting-options.js';
import { createExactCounter } from '../../src/tokens/exact-counter.js';
import { DEFAULT_SPLIT_LIMITS } from '../../src/tokens/split-text.js';
import { message, PATHOLOGICAL, say, spyEncoder, transcriptOf } from './helpers.js';

function conversation(length: number): Message[] {
  return Array.from({ length }, (_, index) =>
    index % 2 === 0
      ? say('user', `request number ${index}`)
      : message(
          'assistant',
          { type: 'text', text: `answer ${index}` },
          { type: 'tool-call', id: `c${index}`, name: 'run', arguments: `{"n":${index}}` },
        ),
  );
}

describe('createExactCounter', () => {
  it('is exact and carries the encoder name', () => {
    const counter = createExactCounter(spyEncoder('my-encoder'));
    expect(counter.exact).toBe(true);
    expect(counter.name).toBe('my-encoder');
  });

  it('counts text through the encoder, cut into bounded pieces', () => {
    const encoder = spyEncoder();
    const counter = createExactCounter(encoder);
    const text = PATHOLOGICAL.repeated(1024 * 1024);
    expect(counter.countText(text)).toBe(text.length);
    expect(encoder.pieces.join('')).toBe(text);
    expect(Math.max(...encoder.pieces.map((piece) => piece.length))).toBe(DEFAULT_SPLIT_LIMITS.maxRun);
  });

  it('re-counting a transcript that grew by k messages counts only the k new ones', () => {
    const encoder = spyEncoder();
    const counter = createExactCounter(encoder);
    const messages = conversation(40);
    const before = transcriptOf(...messages.slice(0, 37));
    const first = counter.countTranscript(before);
    const callsForFirst = encoder.pieces.length;
    expect(callsForFirst).toBeGreaterThan(0);

    encoder.pieces.length = 0;
    const grown = transcriptOf(...messages);
    const second = counter.countTranscript(grown);
    const fresh = createExactCounter(spyEncoder());
    const newOnly = messages.slice(37).reduce((sum, m) => sum + fresh.countMessage(m), 0);
    expect(second).toBe(first + newOnly);
    const newPieces = messages
      .slice(37)
      .flatMap((m) => m.parts)
      .flatMap((part) =>
        part.type === 'text' ? [part.text] : part.type === 'tool-call' ? [part.name, part.arguments] : [],
      );
    expect(encoder.pieces).toEqual(newPieces);

    encoder.pieces.length = 0;
    expect(counter.countTranscript(grown)).toBe(second);
    expect(encoder.pieces).toEqual([]);
  });

  it('keys the cache by message object: an equal but new message is counted again', () => {
    const encoder = spyEncoder();
    const counter = createExactCounter(encoder);
    const original = say('user', 'same words');
    counter.countMessage(original);
    encoder.pieces.length = 0;
    counter.countMessage({ ...original });
    expect(encoder.pieces).toEqual(['same words']);
  });

  it('does not share its cache with another counter instance', () => {
    const first = spyEncoder();
    const second = spyEncoder();
    const shared = say('assistant', 'cached per counter');
    createExactCounter(first).countMessage(shared);
    createExactCounter(second).countMessage(shared);
    expect(first.pieces).toEqual(['cached per counter']);
    expect(second.pieces).toEqual(['cached per counter']);
  });

  it('prices messages with the shared counting options', () => {
    const counter = createExactCounter(spyEncoder(), { messageOverhead: 0, toolCallOverhead: 1 });
    const m = message('assistant', { type: 'tool-call', id: 'x', name: 'ls', arguments: '{}' });
    expect(counter.countMessage(m)).toBe(1 + 2 + 2);
    expect(createExactCounter(spyEncoder()).countMessage(say('user', 'abc'))).toBe(
      DEFAULT_COUNTING_OPTIONS.messageOverhead + 3,
    );
  });

  it('turns an encoder failure into TOKENIZER_FAILED', () => {
    const counter = createExactCounter({
      name: 'broken',
      countPiece: () => {
        throw new Error('boom');
      },
    });
    try {
      counter.countText('anything');
      expect.unreachable();
    } catch (error) {
      expect(isCondenseError(error) && error.code).toBe('TOKENIZER_FAILED');
      expect((error as Error).message).toContain('broken');
    }
  });

  it('rejects split limits that are not positive integers', () => {
    expect(() => createExactCounter(spyEncoder(), { splitLimits: { maxRun: 0, maxPiece: 10 } })).toThrow(
      /maxRun/,
    );
    expect(() => createExactCounter(spyEncoder(), { splitLimits: { maxRun: 10, maxPiece: 2.5 } })).toThrow(
      /maxPiece/,
    );
  });
});
