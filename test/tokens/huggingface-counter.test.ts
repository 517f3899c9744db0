import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { createHuggingFaceCounter } from '../../src/tokens/huggingface-counter.js';
import { PATHOLOGICAL, tinyTokenizerJson } from './helpers.js';

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
    expect.unreachable();
  } catch (error) {
    expect(isCondenseError(error) && error.code).toBe(code);
  }
}

describe('createHuggingFaceCounter', () => {
  it('counts with a tokenizer.json given as text or as a parsed object', async () => {
    const json = tinyTokenizerJson();
    const fromObject = await createHuggingFaceCounter(json);
    const fromText = await createHuggingFaceCounter(JSON.stringify(json));
    // `the`, ` world`, `he` and `ll` are merges of the tiny vocabulary; everything else is one byte per token.
    expect(fromObject.countText('the world')).toBe(2);
    expect(fromText.countText('the world')).toBe(2);
    expect(fromObject.countText('hello')).toBe(3);
    expect(fromObject.exact).toBe(true);
  });

  it('matches the tokenizer itself and excludes tokens a post-processor adds around the input', async () => {
    const json = tinyTokenizerJson();
    const counter = await createHuggingFaceCounter(json);
    const tokenizer = new Tokenizer(json, {});
    const text = 'the world said hello to the world\n\tagain and again';
    expect(counter.countText(text)).toBe(tokenizer.encode(text, { add_special_tokens: false }).ids.length);
  });

  it('counts an added special token in the text as that one token', async () => {
    const counter = await createHuggingFaceCounter(tinyTokenizerJson());
    expect(counter.countText('the<|endoftext|>the')).toBe(3);
  });

  it('names itself hf:<name> from the options, the config or the model type', async () => {
    const json = tinyTokenizerJson();
    expect((await createHuggingFaceCounter(json)).name).toBe('hf:BPE');
    expect((await createHuggingFaceCounter(json, { name_or_path: 'acme/tiny' })).name).toBe('hf:acme/tiny');
    expect((await createHuggingFaceCounter(json, '{"name_or_path":"acme/tiny"}')).name).toBe('hf:acme/tiny');
    expect((await createHuggingFaceCounter(json, undefined, { name: 'mine' })).name).toBe('hf:mine');
  });

  it('stays linear on one long word when the tokenizer has no pre-tokenizer', async () => {
    const counter = await createHuggingFaceCounter(tinyTokenizerJson({ preTokenizer: false }));
    const text = PATHOLOGICAL.repeated(256 * 1024);
    expect(counter.countText(text)).toBe(text.length);
    const base64 = PATHOLOGICAL.base64(64 * 1024);
    expect(counter.countText(base64)).toBe(new Tokenizer(tinyTokenizerJson(), {}).tokenize(base64).length);
  });

  it('reports unusable files as TOKENIZER_FAILED', async () => {
    await expectCode(createHuggingFaceCounter('{not json'), 'TOKENIZER_FAILED');
    await expectCode(createHuggingFaceCounter('[1, 2]'), 'TOKENIZER_FAILED');
    await expectCode(createHuggingFaceCounter({ version: '1.0' }), 'TOKENIZER_FAILED');
    await expectCode(createHuggingFaceCounter(tinyTokenizerJson(), '{oops'), 'TOKENIZER_FAILED');
  });
});
