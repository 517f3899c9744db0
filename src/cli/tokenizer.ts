import { loadTokenizerFile } from '../io/load-tokenizer-file.js';
import { createTokenCounter } from '../tokens/create-token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CliContext } from './context.js';

/** The exact counter named by `--tokenizer` (encoding, model name, or tokenizer.json path relative to cwd). */
export function tokenCounterFromFlag(context: CliContext, spec: string): Promise<TokenCounter> {
  return createTokenCounter(spec, { cwd: context.cwd, loadTokenizerFile });
}
