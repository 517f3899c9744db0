import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { loadTokenizerFile } from '../../src/io/load-tokenizer-file.js';
import { createTokenCounter } from '../../src/tokens/create-token-counter.js';
import { tinyTokenizerJson } from '../tokens/helpers.js';

describe('loadTokenizerFile', () => {
  const root = mkdtempSync(join(tmpdir(), 'condense-tokenizer-'));
  const modelDir = join(root, 'tiny-model');
  mkdirSync(modelDir);
  writeFileSync(join(modelDir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
  writeFileSync(join(modelDir, 'tokenizer_config.json'), '{"name_or_path":"acme/tiny"}');
  writeFileSync(join(root, 'alone.json'), JSON.stringify(tinyTokenizerJson()));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a tokenizer.json and the tokenizer_config.json next to it', async () => {
    const files = await loadTokenizerFile(join(modelDir, 'tokenizer.json'));
    expect(JSON.parse(files.tokenizerJson as string)).toEqual(tinyTokenizerJson());
    expect(files.config).toBe('{"name_or_path":"acme/tiny"}');
    expect(files.name).toBe('tiny-model');
  });

  it('accepts the model directory instead of the file', async () => {
    const files = await loadTokenizerFile(modelDir);
    expect(files.name).toBe('tiny-model');
    expect(files.config).toBeDefined();
  });

  it('reads a lone tokenizer file without a config', async () => {
    const files = await loadTokenizerFile(join(root, 'alone.json'));
    expect(files.config).toBeUndefined();
    expect(files.name).toBeUndefined();
  });

  it('lets createTokenCounter take a path relative to cwd', async () => {
    const counter = await createTokenCounter('./tiny-model/tokenizer.json', { cwd: root, loadTokenizerFile });
    expect(counter.name).toBe('hf:tiny-model');
    expect(counter.countText('the world')).toBe(2);
  });

  it('reports a missing file as IO_FAILED naming it', async () => {
    try {
      await loadTokenizerFile(join(root, 'missing.json'));
      expect.unreachable();
    } catch (error) {
      expect(isCondenseError(error) && error.code).toBe('IO_FAILED');
      expect((error as Error).message).toContain('missing.json');
    }
  });
});
