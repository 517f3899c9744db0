/** The OpenAI encodings condense counts exactly (through gpt-tokenizer). */
export const ENCODING_NAMES = ['o200k_base', 'cl100k_base'] as const;

/** An encoding condense counts exactly. */
export type EncodingName = (typeof ENCODING_NAMES)[number];

/** True when `value` names an encoding condense counts exactly. */
export function isEncodingName(value: unknown): value is EncodingName {
  return typeof value === 'string' && (ENCODING_NAMES as readonly string[]).includes(value);
}

/** Model families on cl100k_base: GPT-4 (not 4o / 4.1 / 4.5), GPT-3.5, the 2022–2024 embedding and base models. */
const CL100K_MODELS = [
  /^gpt-4(-|$)/,
  /^gpt-3\.5/,
  /^gpt-35-/,
  /^text-embedding-(3-|ada-002)/,
  /^(babbage|davinci)-002$/,
];

/**
 * The encoding of an OpenAI model name: gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series, gpt-oss and codex models
 * use o200k_base; gpt-4, gpt-4-turbo, gpt-3.5 and the older embedding models use cl100k_base. A provider prefix
 * (`openai/gpt-4o`, `azure/gpt-35-turbo`) and letter case are ignored.
 *
 * Fallback: every other name, including non-OpenAI models (Claude, Llama, Qwen…) and OpenAI's pre-2022
 * completion models, gets o200k_base. For a model without a public OpenAI encoding that count is an
 * approximation; count with the model's own `tokenizer.json` when exactness matters.
 */
export function encodingForModel(model: string): EncodingName {
  const name = model.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  return CL100K_MODELS.some((pattern) => pattern.test(bare)) ? 'cl100k_base' : 'o200k_base';
}

/** OpenAI model families (after an optional provider prefix and a fine-tune `ft:` prefix). */
const OPENAI_MODELS =
  /^(gpt-|chatgpt-|o\d(-|$)|codex-|text-embedding-|(babbage|davinci)-002$|computer-use-|omni-moderation-)/;

/**
 * True for names of OpenAI models, whose encodings `encodingForModel` knows exactly; false for every other
 * name (Claude, Llama, a typo), which `encodingForModel` only approximates with o200k_base.
 */
export function isOpenAiModelName(model: string): boolean {
  const name = model.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1).replace(/^ft:/, '');
  return OPENAI_MODELS.test(bare);
}
