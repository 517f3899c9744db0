import { CondenseError } from '../errors/condense-error.js';
import { isJsonObject } from '../model/json.js';
import { createEncodingCounter } from './encoding-counter.js';
import { ENCODING_NAMES, encodingForModel, isEncodingName } from './encoding-for-model.js';
import type { ExactCounterOptions } from './exact-counter.js';
import { createHuggingFaceCounter, type HuggingFaceCounterOptions } from './huggingface-counter.js';
import { createRoughCounter, type RoughCounterOptions } from './rough-counter.js';
import type { TokenCounter } from './token-counter.js';

/** The files of a Hugging Face tokenizer, as text or parsed. */
export interface HuggingFaceTokenizerFiles {
  /** Content of `tokenizer.json`. */
  readonly tokenizerJson: string | object;
  /** Content of `tokenizer_config.json`, when there is one. */
  readonly config?: string | object;
  /** Name shown after `hf:` in reports. */
  readonly name?: string;
}

/**
 * What to count with: `'rough'` (the estimator), an encoding (`'o200k_base'`, `'cl100k_base'`), an OpenAI model
 * name (see `encodingForModel`; unknown names fall back to o200k_base), the files of a Hugging Face tokenizer, or
 * the path of a `tokenizer.json` (read through `loadTokenizerFile`).
 */
export type TokenCounterSpec = string | HuggingFaceTokenizerFiles;

/** Options of {@link createTokenCounter}: counting options for every kind of counter, plus file loading. */
export interface CreateTokenCounterOptions extends RoughCounterOptions, ExactCounterOptions {
  /** Directory that relative tokenizer paths are resolved against. */
  readonly cwd?: string;
  /**
   * Reads a tokenizer given by path. The core does no I/O: pass `loadTokenizerFile` from `src/io` (the Node API)
   * to let path specs work.
   */
  readonly loadTokenizerFile?: (path: string) => Promise<HuggingFaceTokenizerFiles>;
}

const PATH_LIKE = /^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])|\.json$/i;

/** True when a counter spec names a tokenizer file (read through `loadTokenizerFile`) rather than a model. */
export function isTokenizerPath(spec: string): boolean {
  return PATH_LIKE.test(spec.trim());
}
const ENCODING_LIKE = /^(o200k|cl100k|p50k|r50k|gpt2$)|_(base|harmony|edit)$/i;

/**
 * One factory for every counter. Throws `INVALID_OPTIONS` for a spec it cannot read (empty, unsupported encoding,
 * path without a loader, object without `tokenizerJson`) and `TOKENIZER_FAILED` when a tokenizer cannot be
 * loaded or built.
 */
export async function createTokenCounter(
  spec: TokenCounterSpec,
  options: CreateTokenCounterOptions = {},
): Promise<TokenCounter> {
  if (typeof spec === 'string') return counterFromName(spec.trim(), options);
  if (isJsonObject(spec) && (typeof spec.tokenizerJson === 'string' || isJsonObject(spec.tokenizerJson))) {
    return createHuggingFaceCounter(spec.tokenizerJson, spec.config, withName(options, spec.name));
  }
  throw invalidSpec(
    `cannot count tokens with ${describe(spec)}`,
    `pass 'rough', ${ENCODING_NAMES.join(', ')}, a model name, a tokenizer.json path, or { tokenizerJson }`,
  );
}

async function counterFromName(spec: string, options: CreateTokenCounterOptions): Promise<TokenCounter> {
  if (spec === '') {
    throw invalidSpec(
      'the tokenizer name is empty',
      `use rough, ${ENCODING_NAMES.join(', ')} or a model name`,
    );
  }
  if (spec === 'rough') return createRoughCounter(options);
  if (isEncodingName(spec)) return createEncodingCounter(spec, options);
  if (isTokenizerPath(spec)) {
    if (options.loadTokenizerFile === undefined) {
      throw invalidSpec(
        `"${spec}" looks like a tokenizer file, but no file loader was given`,
        'read the file with loadTokenizerFile (condense/node) and pass { tokenizerJson }, or pass loadTokenizerFile in the options',
      );
    }
    const files = await options.loadTokenizerFile(resolvePath(options.cwd, spec));
    return createHuggingFaceCounter(files.tokenizerJson, files.config, withName(options, files.name ?? spec));
  }
  if (ENCODING_LIKE.test(spec)) {
    throw invalidSpec(
      `encoding "${spec}" is not supported`,
      `use ${ENCODING_NAMES.join(' or ')} (o200k_harmony counts like o200k_base), or a tokenizer.json`,
    );
  }
  return createEncodingCounter(encodingForModel(spec), options);
}

function withName(options: CreateTokenCounterOptions, name: string | undefined): HuggingFaceCounterOptions {
  return name === undefined ? options : { ...options, name };
}

function resolvePath(cwd: string | undefined, path: string): string {
  if (cwd === undefined || /^([\\/]|~|[A-Za-z]:[\\/])/.test(path)) return path;
  return `${cwd.replace(/[\\/]+$/, '')}/${path}`;
}

function describe(spec: unknown): string {
  if (spec === null) return 'null';
  if (Array.isArray(spec)) return 'an array';
  if (typeof spec === 'object') return 'an object without a tokenizerJson string or object';
  return `a ${typeof spec}`;
}

function invalidSpec(message: string, hint: string): CondenseError {
  return new CondenseError({ code: 'INVALID_OPTIONS', message, hint });
}
