import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import * as knownModels from 'gpt-tokenizer/models';
import { describe, expect, it } from 'vitest';
import { encodingForModel, isEncodingName } from '../../src/tokens/encoding-for-model.js';

describe('encodingForModel', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-4.5-preview', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o1-mini', 'o200k_base'],
    ['o3', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['gpt-oss-120b', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-0613', 'cl100k_base'],
    ['gpt-4-turbo-2024-04-09', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['GPT-4-Turbo', 'cl100k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['azure/gpt-35-turbo', 'cl100k_base'],
  ])('%s → %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it('falls back to o200k_base for models without an OpenAI encoding', () => {
    for (const model of ['claude-sonnet-4-5', 'llama-3.1-70b', 'qwen3-coder', 'davinci', '']) {
      expect(encodingForModel(model)).toBe('o200k_base');
    }
  });

  it("agrees with gpt-tokenizer's table for every model it knows on o200k_base, o200k_harmony or cl100k_base", () => {
    const table: Readonly<Record<string, string>> = modelToEncodingMap;
    for (const model of Object.keys(knownModels)) {
      const theirs = table[model] ?? 'o200k_base';
      if (theirs === 'cl100k_base') expect([model, encodingForModel(model)]).toEqual([model, 'cl100k_base']);
      if (theirs === 'o200k_base' || theirs === 'o200k_harmony') {
        expect([model, encodingForModel(model)]).toEqual([model, 'o200k_base']);
      }
    }
  });

  it('recognises the supported encoding names only', () => {
    expect(isEncodingName('o200k_base')).toBe(true);
    expect(isEncodingName('cl100k_base')).toBe(true);
    expect(isEncodingName('p50k_base')).toBe(false);
    expect(isEncodingName(42)).toBe(false);
  });
});
