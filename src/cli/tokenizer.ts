import { CondenseError } from '../errors/condense-error.js';
import { loadTokenizerFile } from '../io/load-tokenizer-file.js';
import { createTokenCounter, isTokenizerPath } from '../tokens/create-token-counter.js';
import { ENCODING_NAMES, isEncodingName, isOpenAiModelName } from '../tokens/encoding-for-model.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CliContext } from './context.js';

/**
 * Refuses a tokenizer name that would only be approximated (`INVALID_OPTIONS`): the library counts any unknown
 * model name with o200k_base, but on the command line a typo or another vendor's model must not yield numbers
 * that look exact. Accepted: `rough` (when `allowRough`), an encoding, an OpenAI model name, a tokenizer.json
 * path. `source` names where the value came from (`--tokenizer`, or a configuration file's `tokenizer:`).
 */
export function checkTokenizerName(spec: string, source = '--tokenizer', allowRough = false): void {
  const name = spec.trim();
  if (isEncodingName(name) || isTokenizerPath(name) || isOpenAiModelName(name)) return;
  if (allowRough && name === 'rough') return;
  throw new CondenseError({
    code: 'INVALID_OPTIONS',
    message: `${source} "${spec}" is not an encoding, an OpenAI model name or a tokenizer.json path`,
    hint: `use ${ENCODING_NAMES.join(' or ')}${allowRough ? ', rough' : ''}, an OpenAI model (gpt-4o, gpt-4…) or the path of the model's tokenizer.json; for other models pass o200k_base to count approximately`,
  });
}

/** The exact counter named by `--tokenizer` (encoding, OpenAI model name, or tokenizer.json path relative to cwd). */
export function tokenCounterFromFlag(context: CliContext, spec: string): Promise<TokenCounter> {
  checkTokenizerName(spec);
  return createTokenCounter(spec, { cwd: context.cwd, loadTokenizerFile });
}
