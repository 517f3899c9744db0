import { describe, expect, it } from 'vitest';
import { renderCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { findLatestUserRequest } from '../../src/transforms/find-latest-user-request.js';
import { assistant, image, system, text, user } from './support.js';

describe('findLatestUserRequest', () => {
  it('finds the last user message with real content', () => {
    expect(findLatestUserRequest([system('s'), user('a'), assistant('b'), user('c'), assistant('d')])).toBe(
      3,
    );
  });

  it('skips checkpoint-only messages, condense and Hermes alike', () => {
    const condense = user(renderCheckpoint('did things', 'extractive'));
    const hermes = user('[CONTEXT SUMMARY]: earlier work');
    expect(findLatestUserRequest([user('task'), assistant('ok'), condense])).toBe(0);
    expect(findLatestUserRequest([user('task'), assistant('ok'), hermes, assistant('ok')])).toBe(0);
  });

  it('counts a checkpoint message that also carries the request, and image-only requests', () => {
    const merged = {
      role: 'user' as const,
      parts: [text(renderCheckpoint('notes', 'model')), text('now do X')],
    };
    expect(findLatestUserRequest([user('old'), assistant('ok'), merged])).toBe(2);
    const picture = { role: 'user' as const, parts: [image()] };
    expect(findLatestUserRequest([user('old'), assistant('ok'), picture])).toBe(2);
  });

  it('returns -1 when no user spoke', () => {
    expect(findLatestUserRequest([system('s'), assistant('hi')])).toBe(-1);
    expect(findLatestUserRequest([])).toBe(-1);
  });
});
