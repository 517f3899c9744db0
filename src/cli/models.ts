import { CondenseError } from '../errors/condense-error.js';
import { parseModelSpec } from '../summarizer/model/model-spec.js';
import { createModelSummarizer } from '../summarizer/model/model-summarizer.js';
import type { Summarizer } from '../summarizer/summarizer.js';
import type { CliContext } from './context.js';
import { lookUpApiKey } from './model-keys.js';

/**
 * A model summarizer for `--model` / `--summary-model`, with the key taken from the provider's usual
 * environment variable (OPENAI_API_KEY, ANTHROPIC_API_KEY; CONDENSE_API_KEY or OPENROUTER_API_KEY for
 * OpenAI-compatible servers, which may also need none).
 */
export function modelSummarizerFromFlag(
  context: CliContext,
  spec: string,
  baseUrl: string | undefined,
): Summarizer {
  const parsed = parseModelSpec(spec);
  const { variables, apiKey } = lookUpApiKey(context.env, parsed.provider);
  if (apiKey === undefined && parsed.provider !== 'openai-compatible' && baseUrl === undefined) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `no API key for ${parsed.provider}: ${variables.join(' or ')} is not set`,
      hint: 'set the variable, or drop --model to use the extractive checkpoint (no model needed)',
    });
  }
  if (parsed.provider === 'openai-compatible' && baseUrl === undefined) {
    throw new CondenseError({
      code: 'USAGE',
      message: 'openai-compatible models need --base-url',
      hint: 'e.g. --base-url http://localhost:11434/v1 (Ollama) or https://openrouter.ai/api/v1',
    });
  }
  return createModelSummarizer({
    model: spec,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
  });
}
