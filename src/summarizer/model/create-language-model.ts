import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { CondenseError } from '../../errors/condense-error.js';
import type { ModelSpec } from './model-spec.js';

// The spec parser lives apart so the command line can check a spec without loading the providers.
export {
  MODEL_PROVIDERS,
  type ModelProvider,
  type ModelSpec,
  parseModelSpec,
  requiresApiKey,
} from './model-spec.js';

/** How to reach a provider. The core reads no environment: the caller passes the key. */
export interface ProviderSettings {
  /** API key. Required for `openai` and `anthropic`; optional for `openai-compatible` (local servers). */
  readonly apiKey?: string;
  /**
   * Base URL of the API, including the version path (`https://openrouter.ai/api/v1`,
   * `http://localhost:11434/v1`). Required for `openai-compatible`.
   * @default the provider's public endpoint
   */
  readonly baseUrl?: string;
  /** Fetch implementation (tests, proxies, instrumentation). @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

// Passed explicitly: left out, the SDK would look for *_BASE_URL environment variables.
const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/**
 * Builds the AI SDK language model for a spec. `openai:` goes through the Responses API (the AI SDK 6 default,
 * and the only API of OpenAI's newest models); `openai-compatible:` through Chat Completions, which every
 * compatible server speaks. An empty key and the public base URLs are passed rather than nothing, so the SDK never
 * falls back to reading the environment.
 */
export function createLanguageModel(spec: ModelSpec, settings: ProviderSettings): LanguageModel {
  const common = {
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
    ...(settings.headers === undefined ? {} : { headers: { ...settings.headers } }),
  };
  switch (spec.provider) {
    case 'openai':
      return createOpenAI({
        apiKey: settings.apiKey ?? '',
        baseURL: settings.baseUrl ?? OPENAI_BASE_URL,
        ...common,
      }).responses(spec.modelId);
    case 'anthropic':
      return createAnthropic({
        apiKey: settings.apiKey ?? '',
        baseURL: settings.baseUrl ?? ANTHROPIC_BASE_URL,
        ...common,
      })(spec.modelId);
    case 'openai-compatible': {
      if (settings.baseUrl === undefined || settings.baseUrl.trim() === '') {
        throw new CondenseError({
          code: 'INVALID_OPTIONS',
          message: `the openai-compatible model "${spec.modelId}" needs a base URL`,
          hint: 'pass baseUrl, e.g. http://localhost:11434/v1 for Ollama or https://openrouter.ai/api/v1',
        });
      }
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: settings.baseUrl,
        includeUsage: true,
        ...(settings.apiKey === undefined || settings.apiKey === '' ? {} : { apiKey: settings.apiKey }),
        ...common,
      }).chatModel(spec.modelId);
    }
  }
}
