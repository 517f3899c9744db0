import type { ModelProvider } from '../summarizer/model/model-spec.js';

/** The environment variables a provider's key is read from, in order. */
const KEY_VARIABLES: Readonly<Record<ModelProvider, readonly string[]>> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  'openai-compatible': ['CONDENSE_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_API_KEY'],
};

/** Every variable any provider's key may be read from, each once (what a worker thread is handed). */
export const ALL_KEY_VARIABLES: readonly string[] = [...new Set(Object.values(KEY_VARIABLES).flat())];

/** Where a model's key was looked for, and the key when one was set. */
export interface ApiKeyLookup {
  /** The variables read, in order: the provider's usual ones, or only the one a configuration names. */
  readonly variables: readonly string[];
  /** The first of them set to a non-empty value. */
  readonly apiKey: string | undefined;
}

/**
 * The API key of a provider from the environment: the first non-empty of its usual variables (OPENAI_API_KEY,
 * ANTHROPIC_API_KEY; CONDENSE_API_KEY, OPENROUTER_API_KEY then OPENAI_API_KEY for OpenAI-compatible servers),
 * or only `variable` when a configuration names one.
 */
export function lookUpApiKey(
  env: Readonly<Record<string, string | undefined>>,
  provider: ModelProvider,
  variable?: string,
): ApiKeyLookup {
  const variables = variable === undefined ? KEY_VARIABLES[provider] : [variable];
  const apiKey = variables.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  return { variables, apiKey };
}
