import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEncodingCounter } from '../../src/tokens/encoding-counter.js';
import { estimateTextTokens } from '../../src/tokens/estimate-text-tokens.js';
import { corpusFiles, readCorpusFile } from '../support/corpus.js';

/** Every string of 20+ characters in a JSON or JSONL file: message text, tool arguments and output, code… */
function stringsOf(text: string): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= 20) out.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) walk(item);
    }
  };
  try {
    walk(JSON.parse(text));
  } catch {
    for (const line of text.split('\n')) {
      try {
        walk(JSON.parse(line));
      } catch {
        // A damaged line has no strings to contribute.
      }
    }
  }
  return out;
}

describe('rough estimator calibration on the real corpus', () => {
  it('is within 6 % of o200k_base in aggregate and within 25 % for 90 % of texts', async () => {
    const exact = await createEncodingCounter('o200k_base');
    const files = (['claude-code', 'openai', 'sharegpt', 'anthropic'] as const)
      .flatMap((dir) => corpusFiles(dir))
      .filter((file) => statSync(file).size < 250_000);
    const texts = [...new Set(files.flatMap((file) => stringsOf(readCorpusFile(file))))];
    let estimated = 0;
    let counted = 0;
    const errors: number[] = [];
    for (const text of texts) {
      const rough = estimateTextTokens(text);
      const tokens = exact.countText(text);
      estimated += rough;
      counted += tokens;
      if (tokens >= 20) errors.push(Math.abs(rough - tokens) / tokens);
    }
    errors.sort((left, right) => left - right);
    expect(texts.length).toBeGreaterThan(1000);
    expect(Math.abs(estimated - counted) / counted).toBeLessThan(0.06);
    expect(errors[Math.floor(errors.length * 0.9)]).toBeLessThan(0.25);
  });

  it('beats characters ÷ 4 on the raw transcript files', async () => {
    const exact = await createEncodingCounter('o200k_base');
    let roughError = 0;
    let charsError = 0;
    for (const file of corpusFiles('claude-code').filter((path) => statSync(path).size < 250_000)) {
      const text = readCorpusFile(file);
      const tokens = exact.countText(text);
      roughError += Math.abs(estimateTextTokens(text) - tokens);
      charsError += Math.abs(Math.ceil(text.length / 4) - tokens);
    }
    expect(roughError).toBeLessThan(charsError / 3);
  });
});
