import { CondenseError } from '../errors/condense-error.js';
import { isJsonObject } from '../model/json.js';
import { createExactCounter, type ExactCounterOptions } from './exact-counter.js';
import type { TokenCounter } from './token-counter.js';

/** Options of {@link createHuggingFaceCounter}. */
export interface HuggingFaceCounterOptions extends ExactCounterOptions {
  /**
   * Name shown after `hf:` in reports.
   * @default the config's `name_or_path`, else the tokenizer model's type (`BPE`, `Unigram`…)
   */
  readonly name?: string;
}

/**
 * An exact counter from a Hugging Face `tokenizer.json` (its text or the parsed object) and optionally the
 * model's `tokenizer_config.json`, backed by @huggingface/tokenizers; nothing is downloaded. Counts exclude the
 * tokens a post-processor adds around a whole input (BOS/EOS); text matching one of the tokenizer's added tokens
 * (`<|endoftext|>`, `<|im_start|>`) counts as that one token. Pieces are cut as for every exact counter; for
 * tokenizers that prepend a word marker to every input (Llama 2 style) a cut may add one token per piece
 * (4,096 characters by default). Throws `TOKENIZER_FAILED` when the files cannot be used.
 */
export async function createHuggingFaceCounter(
  tokenizerJson: string | object,
  config?: string | object,
  options: HuggingFaceCounterOptions = {},
): Promise<TokenCounter> {
  const tokenizerObject = parseJsonObject(tokenizerJson, 'tokenizer.json');
  const configObject = config === undefined ? {} : parseJsonObject(config, 'tokenizer_config.json');
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tokenizer: InstanceType<typeof Tokenizer>;
  try {
    tokenizer = new Tokenizer(tokenizerObject, configObject);
  } catch (error) {
    throw new CondenseError({
      code: 'TOKENIZER_FAILED',
      message: `cannot build a tokenizer from this tokenizer.json: ${(error as Error).message}`,
      hint: 'pass the tokenizer.json of a Hugging Face model (BPE, WordPiece or Unigram), not another file',
      cause: error,
    });
  }
  const name = `hf:${options.name ?? nameOf(tokenizerObject, configObject)}`;
  return createExactCounter(
    { name, countPiece: (piece) => tokenizer.tokenize(piece, { add_special_tokens: false }).length },
    options,
  );
}

function parseJsonObject(value: string | object, file: string): Record<string, unknown> {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new CondenseError({
        code: 'TOKENIZER_FAILED',
        message: `the ${file} text is not valid JSON: ${(error as Error).message}`,
        hint: `pass the content of the model's ${file}`,
        cause: error,
      });
    }
  }
  if (!isJsonObject(parsed)) {
    throw new CondenseError({
      code: 'TOKENIZER_FAILED',
      message: `${file} must hold a JSON object`,
      hint: `pass the content of the model's ${file}`,
    });
  }
  return parsed as Record<string, unknown>;
}

function nameOf(tokenizer: Record<string, unknown>, config: Record<string, unknown>): string {
  const configured = config['name_or_path'];
  if (typeof configured === 'string' && configured !== '') return configured;
  const model = tokenizer['model'];
  const type = isJsonObject(model) ? model['type'] : undefined;
  return typeof type === 'string' ? type : 'tokenizer';
}
