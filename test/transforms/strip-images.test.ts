import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { stripHistoricalImages, stripImages } from '../../src/transforms/strip-images.js';
import { assistant, call, deepFreeze, image, result, tool, user } from './support.js';

function imageCount(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'image') count++;
      if (part.type === 'tool-result') count += part.content.filter((inner) => inner.type === 'image').length;
    }
  }
  return count;
}

function screenshots() {
  return deepFreeze([
    user('look at this', image('https://example.com/mock.png')),
    assistant('', call('s1', 'screenshot')),
    tool(result('s1', 'here', { extra: [image()] })),
    user('and now this one', image()),
    assistant('', call('s2', 'screenshot')),
    tool(result('s2', 'again', { extra: [image()] })),
    assistant('seen'),
  ]);
}

describe('stripImages', () => {
  it('replaces old images in messages and tool results by a placeholder that keeps the URL', () => {
    const messages = screenshots();
    const out = stripImages(messages, { before: 3 });
    expect(out.stripped).toBe(2);
    expect(out.messages[0]?.parts[1]).toEqual({
      type: 'text',
      text: '[image removed to save context: https://example.com/mock.png]',
    });
    expect(out.messages[2]?.parts[0]).toMatchObject({
      content: [{ text: 'here' }, { type: 'text', text: '[image removed to save context (image/png)]' }],
    });
    expect(out.messages.slice(3)).toEqual(messages.slice(3));
  });

  it('keeps the images of the latest user request', () => {
    const out = stripImages(screenshots(), { before: 7 });
    expect(out.stripped).toBe(3);
    expect(out.messages[3]?.parts[1]?.type).toBe('image');
    const all = stripImages(screenshots(), { before: 7, keepLatestUserRequest: false });
    expect(imageCount(all.messages)).toBe(0);
  });

  it('can leave the images messages carry themselves and strip only those inside tool results', () => {
    const out = stripImages(screenshots(), { before: 7, toolResultsOnly: true });
    expect(out.stripped).toBe(2);
    expect(out.messages[0]?.parts[1]?.type).toBe('image');
    expect(imageCount(out.messages)).toBe(2);
  });

  it('takes a fixed or computed placeholder', () => {
    const fixed = stripImages(screenshots(), { before: 3, placeholder: '[img]' });
    expect(fixed.messages[0]?.parts[1]).toEqual({ type: 'text', text: '[img]' });
    const computed = stripImages(screenshots(), {
      before: 3,
      placeholder: (part) => `[${part.source.kind}]`,
    });
    expect(computed.messages[0]?.parts[1]).toEqual({ type: 'text', text: '[url]' });
  });

  it('returns the same array when there is nothing to strip', () => {
    const messages = deepFreeze([user('hi'), assistant('hello')]);
    expect(stripImages(messages, { before: 2 }).messages).toBe(messages);
  });
});

describe('stripHistoricalImages', () => {
  it('strips every image before the last user message that attached one', () => {
    const messages = screenshots();
    const out = stripHistoricalImages(messages);
    expect(out.stripped).toBe(2);
    expect(imageCount(out.messages.slice(0, 3))).toBe(0);
    expect(out.messages.slice(3)).toEqual(messages.slice(3));
  });

  it('does nothing when no user image exists or only the first message has one', () => {
    const first = deepFreeze([
      user('x', image()),
      assistant('', call('a', 'shot')),
      tool(result('a', 'r', { extra: [image()] })),
    ]);
    expect(stripHistoricalImages(first).messages).toBe(first);
    const none = deepFreeze([
      user('x'),
      assistant('', call('a', 'shot')),
      tool(result('a', 'r', { extra: [image()] })),
    ]);
    expect(stripHistoricalImages(none).stripped).toBe(0);
  });
});
