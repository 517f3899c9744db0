import { describe, expect, it } from 'vitest';
import { checkTokenizerName } from '../../src/cli/tokenizer.js';

describe('checkTokenizerName', () => {
  it('accepts encodings, OpenAI model names and tokenizer files', () => {
    for (const name of [
      'o200k_base',
      'cl100k_base',
      'gpt-4o',
      'gpt-4',
      'openai/gpt-4o-mini',
      'azure/gpt-35-turbo',
      'o3-mini',
      'o1',
      'ft:gpt-4o-mini:acme::abc123',
      'text-embedding-3-small',
      './tokenizer.json',
      '/models/qwen/tokenizer.json',
    ]) {
      expect(() => checkTokenizerName(name), name).not.toThrow();
    }
  });

  it('refuses names that would only be approximated, naming the source of the value', () => {
    for (const name of [
      'nonsense',
      'claude-3-5-sonnet',
      'llama-3.1-8b',
      'moonshotai/Kimi-K2-Thinking',
      'o200k',
      'rough',
    ]) {
      expect(() => checkTokenizerName(name), name).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    expect(() => checkTokenizerName('Kimi', 'tokenizer: in policy.yaml')).toThrow(
      /^tokenizer: in policy\.yaml "Kimi"/,
    );
  });

  it('accepts rough where the command counts roughly by choice', () => {
    expect(() => checkTokenizerName('rough', '--tokenizer', true)).not.toThrow();
  });
});
