import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engines/registry.js';
import { parseCondenseHeader } from '../../../src/integrations/proxy/condense-header.js';
import { ConversationStore } from '../../../src/integrations/proxy/conversation-store.js';
import { protocolOf, upstreamUrl } from '../../../src/integrations/proxy/routes.js';
import { startProxy } from '../../../src/integrations/proxy/server.js';

describe('proxy routing', () => {
  it.each([
    ['https://api.openai.com/v1', '/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', '/chat/completions?x=1', 'https://api.openai.com/v1/chat/completions?x=1'],
    ['https://api.anthropic.com', '/v1/messages', 'https://api.anthropic.com/v1/messages'],
    ['https://openrouter.ai/api/v1', '/v1/models', 'https://openrouter.ai/api/v1/models'],
    ['http://127.0.0.1:9000', '/chat/completions', 'http://127.0.0.1:9000/chat/completions'],
  ])('joins %s and %s', (base, target, expected) => {
    expect(upstreamUrl(new URL(base), target).href).toBe(expected);
  });

  it('compacts only chat POST routes', () => {
    expect(protocolOf('POST', '/v1/chat/completions')).toBe('openai');
    expect(protocolOf('POST', '/openai/deployments/gpt/chat/completions')).toBe('openai');
    expect(protocolOf('POST', '/v1/messages')).toBe('anthropic');
    expect(protocolOf('POST', '/messages')).toBe('anthropic');
    expect(protocolOf('POST', '/v1/messages/count_tokens')).toBeUndefined();
    expect(protocolOf('GET', '/v1/chat/completions')).toBeUndefined();
    expect(protocolOf('POST', '/v1/embeddings')).toBeUndefined();
  });
});

describe('conversation store', () => {
  it('keeps the most recently used conversations up to its capacity', () => {
    const store = new ConversationStore(2, () => createEngine('rules'));
    const first = store.get('a', 'A');
    store.get('b', 'B');
    expect(store.get('a', 'A')).toBe(first);
    store.get('c', 'C');
    expect(store.has('a')).toBe(true);
    expect(store.has('b')).toBe(false);
    expect(store.size).toBe(2);
  });

  it('runs the tasks of one conversation one at a time, in order', async () => {
    const conversation = new ConversationStore(1, () => createEngine('rules')).get('k', 'K');
    const order: string[] = [];
    const slow = conversation.exclusive(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('slow');
    });
    const failing = conversation.exclusive(async () => {
      order.push('failing');
      throw new Error('boom');
    });
    const fast = conversation.exclusive(async () => order.push('fast'));
    await Promise.allSettled([slow, failing, fast]);
    expect(order).toEqual(['slow', 'failing', 'fast']);
  });
});

describe('proxy options', () => {
  it.each([
    [{ upstream: '' }, 'needs an upstream'],
    [{ upstream: 'not a url' }, 'not a URL'],
    [{ upstream: 'http://x/?key=1' }, 'query string'],
    [{ upstream: 'http://x', maxBodyBytes: 0 }, 'maxBodyBytes'],
    [{ upstream: 'http://x', maxBodySize: 10 }, 'unknown proxy option "maxBodySize"'],
  ])('refuses %j', async (options, message) => {
    await expect(startProxy({ port: 0, ...options })).rejects.toThrow(message);
  });

  it('parses the x-condense header', () => {
    expect(parseCondenseHeader('compacted; tokens=9000->2100; messages=80->14; summary=extractive')).toEqual({
      action: 'compacted',
      fields: { tokens: '9000->2100', messages: '80->14', summary: 'extractive' },
    });
  });
});
