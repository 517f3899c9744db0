/**
 * Token cost of each kind of content the rough estimator recognises. This is the estimator's whole calibration:
 * a text's estimate is the sum, over what one pass finds in it, of count × weight.
 *
 * Why not characters ÷ 4: on this project's corpus (`../shared/corpus`, 31.5 MB of real agent transcripts)
 * chars/4 against o200k_base is off by +12 % on prose, −13 % on code, −17 % on tool output, −25 % on the
 * transcript JSONL itself and −63 % on base64, and by 30–64 % per text at the 90th percentile. A tokenizer splits
 * text into words, numbers, punctuation runs and whitespace runs before merging bytes; the weights below price
 * those units instead of characters, so the density follows the content.
 *
 * How the weights were made: gpt-tokenizer o200k_base counts of 14,453 texts from the corpus (message text,
 * reasoning, tool-call arguments, tool output, code, base64 signatures, 4 KB slices of the raw JSON and JSONL
 * files), non-negative least squares on the relative error with each content kind weighted equally, checked on
 * a held-out half. The non-Latin-script, CJK and emoji weights are set by hand from sample sentences (the corpus
 * has too little of them) and sit between o200k and cl100k.
 *
 * Error against o200k_base on the decoded corpus, as `bench/tokens.bench.ts` measures it (aggregate = error of the
 * summed estimate, cl100k_base in brackets; per-text figures over texts of 20 tokens or more):
 *
 * | content | aggregate | median per text | 90th percentile |
 * |---|---|---|---|
 * | prose (message text) | −1.4 % (−1.8 %) | 3.6 % | 9.4 % |
 * | reasoning | −0.1 % (−1.3 %) | 3.5 % | 8.0 % |
 * | code (fenced in messages) | +0.6 % (+1.1 %) | 6.4 % | 15.4 % |
 * | tool-call arguments (JSON) | +0.4 % (+1.4 %) | 4.2 % | 10.3 % |
 * | tool output | −1.0 % (−0.6 %) | 4.6 % | 9.0 % |
 * | base64 (reasoning signatures) | −1.0 % (−5.9 %) | 1.9 % | 6.3 % |
 * | pretty-printed JSON files | −0.4 % (−0.6 %) | 0.8 % | 3.7 % |
 * | transcript JSONL files | +0.7 % (+0.4 %) | 2.8 % | 5.9 % |
 * | whole transcripts (702) | −0.9 % (−0.6 %) | 2.2 % | 4.6 % |
 */
export interface RoughWeights {
  /** A run of ASCII or Latin letters; an upper-case letter after a lower-case one starts a new word. */
  readonly word: number;
  /** Each letter of a word beyond the 8th (long words and identifiers split into several tokens). */
  readonly letterBeyond8: number;
  /** Each letter of a word beyond the 12th, on top of `letterBeyond8`. */
  readonly letterBeyond12: number;
  /** Each group of up to three digits of a number (tokenizers group digits by three). */
  readonly digitGroup: number;
  /**
   * Each character of a letter-and-digit run that switches between letters and digits three times or more
   * (hashes, hex, base64, ids): such runs cost about one token per 1.4 characters.
   */
  readonly randomCharacter: number;
  /** Each run of line breaks. */
  readonly lineBreak: number;
  /** Each ASCII punctuation or symbol character. */
  readonly punctuation: number;
  /** Each run of ASCII punctuation (JSON's `":"`, `"},{"` are one or two tokens, not one per character). */
  readonly punctuationRun: number;
  /** Each run of two or more spaces (indentation). */
  readonly indentation: number;
  /** A single space before a number (it is a token of its own). */
  readonly spaceBeforeDigit: number;
  /** Each tab. */
  readonly tab: number;
  /** Each CJK, kana, hangul or other character from U+2E80 up (o200k ≈ 0.7, cl100k ≈ 1.1 per character). */
  readonly cjk: number;
  /** Each character of U+2000–U+2E7F: typographic punctuation, arrows, box drawing, math symbols. */
  readonly symbol: number;
  /** Each run of U+2000–U+2E7F characters. */
  readonly symbolRun: number;
  /** Each letter of Greek, Cyrillic, Hebrew, Arabic, Indic and other scripts of U+0250–U+1FFF. */
  readonly scriptLetter: number;
  /** Each character outside the Basic Multilingual Plane (emoji). */
  readonly astral: number;
}

/** The default calibration (o200k_base, measured as described on {@link RoughWeights}). */
export const ROUGH_WEIGHTS: RoughWeights = {
  word: 0.964,
  letterBeyond8: 0.219,
  letterBeyond12: 0.211,
  digitGroup: 1.152,
  randomCharacter: 0.697,
  lineBreak: 0.591,
  punctuation: 0.207,
  punctuationRun: 0.55,
  indentation: 0.663,
  spaceBeforeDigit: 1.515,
  tab: 1.337,
  cjk: 0.8,
  symbol: 0.203,
  symbolRun: 1.919,
  scriptLetter: 0.3,
  astral: 2,
};
