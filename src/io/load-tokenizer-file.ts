import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HuggingFaceTokenizerFiles } from '../tokens/create-token-counter.js';
import { readTextFile } from './read-text.js';

/**
 * Reads a Hugging Face tokenizer from disk: `path` is a `tokenizer.json` or a directory holding one. A
 * `tokenizer_config.json` next to it is read too when present. The result goes to `createTokenCounter` or
 * `createHuggingFaceCounter`; pass this function as `loadTokenizerFile` to let `createTokenCounter` take paths.
 * Throws `IO_FAILED` naming the file when it cannot be read.
 */
export async function loadTokenizerFile(path: string): Promise<HuggingFaceTokenizerFiles> {
  const file = (await isDirectory(path)) ? join(path, 'tokenizer.json') : path;
  const tokenizerJson = await readTextFile(file);
  const configPath = join(dirname(file), 'tokenizer_config.json');
  const config = (await isFile(configPath)) ? await readTextFile(configPath) : undefined;
  const name = file.endsWith('tokenizer.json') ? dirname(file).split(/[\\/]/).pop() : undefined;
  return {
    tokenizerJson,
    ...(config === undefined ? {} : { config }),
    ...(name === undefined || name === '' || name === '.' ? {} : { name }),
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
