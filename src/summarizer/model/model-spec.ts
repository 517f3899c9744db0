import { CondenseError } from '../../errors/condense-error.js';

/** Providers a model spec can name. */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;

/** A provider a model spec can name. */
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A parsed `provider:model-id` spec. */
export interface ModelSpec {
  readonly provider: ModelProvider;
  readonly modelId: string;
}

/** Parses `openai:gpt-4o-mini`, `anthropic:claude-haiku-4-5`, `openai-compatible:qwen3-8b`. */
export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? '' : spec.slice(0, colon).trim();
  const modelId = colon === -1 ? '' : spec.slice(colon + 1).trim();
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider) || modelId === '') {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `cannot read the model spec "${spec}"`,
      hint: `write provider:model-id with provider one of ${MODEL_PROVIDERS.join(', ')}, e.g. openai:gpt-4o-mini`,
    });
  }
  return { provider: provider as ModelProvider, modelId };
}

/** True when the provider cannot be called without a key. */
export function requiresApiKey(provider: ModelProvider): boolean {
  return provider !== 'openai-compatible';
}
