/** The environment variables a provider's key is read from, in order. */
export const KEY_VARIABLES = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  'openai-compatible': ['CONDENSE_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_API_KEY'],
} as const;
