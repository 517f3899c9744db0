import { describe, expect, it } from 'vitest';
import { ALL_KEY_VARIABLES, lookUpApiKey } from '../../src/cli/model-keys.js';

describe('API key lookup', () => {
  it("reads each provider's usual variable", () => {
    const env = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' };
    expect(lookUpApiKey(env, 'openai')).toEqual({ variables: ['OPENAI_API_KEY'], apiKey: 'o' });
    expect(lookUpApiKey(env, 'anthropic')).toEqual({ variables: ['ANTHROPIC_API_KEY'], apiKey: 'a' });
  });

  it('tries the OpenAI-compatible variables in order and skips empty ones', () => {
    const variables = ['CONDENSE_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_API_KEY'];
    expect(lookUpApiKey({ OPENAI_API_KEY: 'o', OPENROUTER_API_KEY: 'r' }, 'openai-compatible')).toEqual({
      variables,
      apiKey: 'r',
    });
    expect(lookUpApiKey({ CONDENSE_API_KEY: '', OPENAI_API_KEY: 'o' }, 'openai-compatible').apiKey).toBe('o');
  });

  it('reads only the variable a configuration names', () => {
    const env = { OPENAI_API_KEY: 'o', MY_KEY: 'm' };
    expect(lookUpApiKey(env, 'openai', 'MY_KEY')).toEqual({ variables: ['MY_KEY'], apiKey: 'm' });
    expect(lookUpApiKey(env, 'openai', 'MISSING')).toEqual({ variables: ['MISSING'], apiKey: undefined });
  });

  it('says which variables were read when no key is set', () => {
    expect(lookUpApiKey({}, 'anthropic')).toEqual({ variables: ['ANTHROPIC_API_KEY'], apiKey: undefined });
  });

  it('lists every variable once for worker threads', () => {
    expect([...ALL_KEY_VARIABLES].sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'CONDENSE_API_KEY',
      'OPENAI_API_KEY',
      'OPENROUTER_API_KEY',
    ]);
  });
});
