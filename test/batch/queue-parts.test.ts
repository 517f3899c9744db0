import { describe, expect, it } from 'vitest';
import {
  configKeyOf,
  decodeJobConfig,
  encodeJobConfig,
  parseStoredResults,
} from '../../src/batch/queue/chunk-job.js';
import { checkQueueName, parseRedisUrl } from '../../src/batch/queue/redis-url.js';

describe('queue jobs and addresses (no Redis needed)', () => {
  it('carries a configuration with regular expressions through JSON, and keys it stably', () => {
    const config = {
      settings: {
        targetMaxTokens: 900,
        redact: { allow: [/^sk-test-/i, 'literal'], patterns: [{ name: 'ticket', pattern: /TCK-\d+/g }] },
      },
      tokenizer: 'o200k_base',
      cwd: '/data',
      model: { spec: 'openai:gpt-4o-mini', apiKeyEnv: 'TEAM_KEY' },
    };
    const text = encodeJobConfig(config);
    expect(text).not.toContain('apiKey"');
    const back = decodeJobConfig(text);
    expect(back).toEqual(config);
    const allow = (back.settings.redact as { allow: unknown[] }).allow[0] as RegExp;
    expect(allow).toBeInstanceOf(RegExp);
    expect(allow.flags).toBe('i');
    expect(configKeyOf(text, 1000)).toBe(configKeyOf(encodeJobConfig(config), 1000));
    expect(configKeyOf(text, 1000)).not.toBe(configKeyOf(text, 2000));
  });

  it('accepts stored results only when they fit the chunk', () => {
    const stored = JSON.stringify({ v: 1, results: [{ outcome: 'compressed', text: '{}' }] });
    expect(parseStoredResults(stored, 1)).toEqual([{ outcome: 'compressed', text: '{}' }]);
    expect(parseStoredResults(stored, 2)).toBeUndefined();
    expect(parseStoredResults('{"v":1,"results":[{"text":1}]}', 1)).toBeUndefined();
    expect(parseStoredResults('not json', 1)).toBeUndefined();
  });

  it('checks --queue URLs and queue names, and never shows a password', () => {
    expect(parseRedisUrl('redis://:s3cret@redis.internal:6379/2').display).toBe(
      'redis://:***@redis.internal:6379/2',
    );
    expect(parseRedisUrl('rediss://cache:6380').display).toBe('rediss://cache:6380');
    for (const bad of ['http://localhost:6379', 'redis://', 'redis://host:6379/db', 'localhost:6379']) {
      expect(() => parseRedisUrl(bad), bad).toThrow(expect.objectContaining({ code: 'USAGE' }));
    }
    let message = '';
    try {
      parseRedisUrl('ftp://user:s3cret@host');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('--queue must be a Redis URL');
    expect(message).not.toContain('s3cret');
    expect(() => checkQueueName('a:b')).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
