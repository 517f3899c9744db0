import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { createTokenCounter, type TokenCounterSpec } from '../../src/tokens/create-token-counter.js';
import { tinyTokenizerJson } from './helpers.js';

async function errorOf(spec: unknown, options = {}): Promise<{ code: string; hint: string | undefined }> {
  try {
    await createTokenCounter(spec as TokenCounterSpec, options);
  } catch (error) {
    if (isCondenseError(error)) return { code: error.code, hint: error.hint };
    throw error;
  }
  throw new Error(`expected ${String(spec)} to be rejected`);
}

describe('createTokenCounter', () => {
  it.each([
    ['rough', 'rough', false],
    ['o200k_base', 'o200k_base', true],
    ['cl100k_base', 'cl100k_base', true],
    ['gpt-4o-mini', 'o200k_base', true],
    ['gpt-4-turbo', 'cl100k_base', true],
    [' gpt-3.5-turbo ', 'cl100k_base', true],
    ['claude-sonnet-4-5', 'o200k_base', true],
    ['openai/gpt-4.1', 'o200k_base', true],
  ])('%s → counter %s', async (spec, name, exact) => {
    const counter = await createTokenCounter(spec);
    expect(counter.name).toBe(name);
    expect(counter.exact).toBe(exact);
    expect(counter.countText('hello world')).toBeGreaterThan(0);
  });

  it('passes counting options to every kind of counter', async () => {
    const image = { type: 'image', source: { kind: 'url', url: 'https://example.com/x.png' } } as const;
    for (const spec of ['rough', 'o200k_base', 'gpt-4']) {
      expect((await createTokenCounter(spec, { imageTokens: 7 })).countPart(image)).toBe(7);
    }
    expect(
      (await createTokenCounter({ tokenizerJson: tinyTokenizerJson() }, { imageTokens: 7 })).countPart(image),
    ).toBe(7);
  });

  it('builds a Hugging Face counter from { tokenizerJson, config, name }', async () => {
    const counter = await createTokenCounter({
      tokenizerJson: JSON.stringify(tinyTokenizerJson()),
      name: 'tiny',
    });
    expect(counter.name).toBe('hf:tiny');
    expect(counter.countText('the world')).toBe(2);
  });

  it('reads a tokenizer path through the injected loader, resolved against cwd', async () => {
    const seen: string[] = [];
    const loadTokenizerFile = async (path: string) => {
      seen.push(path);
      return { tokenizerJson: tinyTokenizerJson(), name: 'from-disk' };
    };
    const counter = await createTokenCounter('models/tiny/tokenizer.json', {
      cwd: '/work/',
      loadTokenizerFile,
    });
    expect(counter.name).toBe('hf:from-disk');
    await createTokenCounter('/abs/tokenizer.json', { cwd: '/work', loadTokenizerFile });
    await createTokenCounter('./dir/', { cwd: '/work', loadTokenizerFile });
    expect(seen).toEqual(['/work/models/tiny/tokenizer.json', '/abs/tokenizer.json', '/work/./dir/']);
  });

  it('rejects a path when no loader was given, saying how to load it', async () => {
    const { code, hint } = await errorOf('./tokenizer.json', { cwd: '/work' });
    expect(code).toBe('INVALID_OPTIONS');
    expect(hint).toContain('loadTokenizerFile');
  });

  it.each([
    ['', 'INVALID_OPTIONS'],
    ['   ', 'INVALID_OPTIONS'],
    ['p50k_base', 'INVALID_OPTIONS'],
    ['o200k_harmony', 'INVALID_OPTIONS'],
    ['r50k_base', 'INVALID_OPTIONS'],
  ])('rejects the name %j with %s and a hint', async (spec, code) => {
    const error = await errorOf(spec);
    expect(error.code).toBe(code);
    expect(error.hint).toMatch(/o200k_base/);
  });

  it.each([[42], [null], [undefined], [[]], [{}], [{ tokenizerJson: 3 }]])(
    'rejects the spec %j with INVALID_OPTIONS',
    async (spec) => {
      const error = await errorOf(spec);
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.hint).toContain('rough');
    },
  );

  it('rejects a broken tokenizer.json with TOKENIZER_FAILED', async () => {
    expect((await errorOf({ tokenizerJson: '{"model": 1' })).code).toBe('TOKENIZER_FAILED');
  });
});
