import { ROUGH_WEIGHTS, type RoughWeights } from './rough-calibration.js';

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const TAB = 5;
const LINE_BREAK = 6;
const PUNCTUATION = 7;
const CJK = 8;
const SYMBOL = 9;
const SURROGATE = 10;
const SCRIPT = 11;

/** Class of every ASCII code unit, so the hot loop does one array read for most characters. */
const ASCII_CLASS = (() => {
  const table = new Uint8Array(128).fill(PUNCTUATION);
  for (let code = 97; code <= 122; code++) table[code] = LOWER;
  for (let code = 65; code <= 90; code++) table[code] = UPPER;
  for (let code = 48; code <= 57; code++) table[code] = DIGIT;
  table[32] = SPACE;
  table[9] = TAB;
  table[10] = LINE_BREAK;
  table[13] = LINE_BREAK;
  return table;
})();

function classOf(code: number): number {
  if (code < 0x80) return ASCII_CLASS[code] as number;
  if (code < 0xc0 || code === 0xd7 || code === 0xf7) return PUNCTUATION;
  if (code < 0x250) return LOWER;
  if (code < 0x2000) return SCRIPT;
  if (code < 0x2e80) return SYMBOL;
  return code >= 0xd800 && code <= 0xdfff ? SURROGATE : CJK;
}

/** End of the run of ASCII characters of class `kind` (lower, upper, digit or space) that goes on at `from`. */
function asciiRunEnd(text: string, from: number, kind: number): number {
  const length = text.length;
  let end = from;
  while (end < length) {
    const code = text.charCodeAt(end);
    if (code >= 0x80 || ASCII_CLASS[code] !== kind) break;
    end++;
  }
  return end;
}

/** What each class of character costs when it continues a run and when it starts one, for one set of weights. */
interface ClassPrices {
  readonly continuation: Float64Array;
  readonly start: Float64Array;
}

/**
 * Prices in typed arrays, read as raw doubles. Helper functions returning them could box a heap number per
 * character where V8 did not inline them: a heap sample of one pass over the eval's quality set charged the
 * estimator with 5.7–21 MB of allocations then, and none once it is optimized now.
 */
const pricesByWeights = new WeakMap<RoughWeights, ClassPrices>();

function pricesOf(weights: RoughWeights): ClassPrices {
  const known = pricesByWeights.get(weights);
  if (known !== undefined) return known;
  // Classes not listed cost nothing per character: words, numbers and spaces are priced when their run ends.
  const continuation = new Float64Array(SCRIPT + 1);
  continuation[PUNCTUATION] = weights.punctuation;
  continuation[CJK] = weights.cjk;
  continuation[SYMBOL] = weights.symbol;
  continuation[SURROGATE] = weights.astral / 2;
  continuation[SCRIPT] = weights.scriptLetter;
  continuation[TAB] = weights.tab;
  const start = Float64Array.from(continuation);
  start[LINE_BREAK] = weights.lineBreak;
  start[PUNCTUATION] = weights.punctuation + weights.punctuationRun;
  start[SYMBOL] = weights.symbol + weights.symbolRun;
  const prices = { continuation, start };
  pricesByWeights.set(weights, prices);
  return prices;
}

/**
 * Estimated tokens of `text`: one pass over its UTF-16 code units pricing words, numbers, punctuation runs,
 * whitespace runs and non-Latin characters with `weights` (see {@link RoughWeights} for the calibration and its
 * measured error). Linear, allocation-free, never throws. A non-empty text costs at least one token.
 */
export function estimateTextTokens(text: string, weights: RoughWeights = ROUGH_WEIGHTS): number {
  if (text.length === 0) return 0;
  return Math.max(1, Math.round(roughTextCost(text, weights)));
}

/** The unrounded sum of {@link estimateTextTokens}' prices (exported for the equivalence tests). */
export function roughTextCost(text: string, weights: RoughWeights): number {
  const { continuation, start } = pricesOf(weights);
  const word = weights.word;
  const beyond8 = weights.letterBeyond8;
  const beyond12 = weights.letterBeyond12;
  const digitGroup = weights.digitGroup;
  const indentation = weights.indentation;
  const spaceBeforeDigit = weights.spaceBeforeDigit;
  const randomCharacter = weights.randomCharacter;
  const length = text.length;
  let tokens = 0;
  // The letters-and-digits run being read ("word"), and the letter or digit run inside it.
  let wordLength = 0;
  let wordSwitches = 0;
  let wordCost = 0;
  let letters = 0;
  let digits = 0;
  let spaces = 0;
  let previous = 0;
  let index = 0;
  while (index <= length) {
    let kind = 0;
    if (index < length) {
      const code = text.charCodeAt(index);
      kind = code < 0x80 ? (ASCII_CLASS[code] as number) : classOf(code);
    }
    if (kind === previous) {
      // Runs are read whole where they start: a letter, digit or space lands here only after a non-ASCII
      // character of its class.
      if (kind === LOWER || kind === UPPER || kind === DIGIT || kind === SPACE) {
        const end = asciiRunEnd(text, index + 1, kind);
        const run = end - index;
        if (kind === DIGIT) digits += run;
        else if (kind === SPACE) spaces += run;
        else letters += run;
        if (kind !== SPACE) wordLength += run;
        index = end;
        continue;
      }
      tokens += continuation[kind] as number;
      index++;
      continue;
    }
    // Only the counter of the run that just ended can be non-zero: letters after a letter, digits after a digit,
    // spaces after a space.
    if (previous === DIGIT) {
      wordCost += Math.ceil(digits / 3) * digitGroup;
      digits = 0;
    } else if (previous === SPACE) {
      if (spaces > 1) tokens += indentation;
      else if (kind === DIGIT) tokens += spaceBeforeDigit;
      spaces = 0;
    } else if (letters > 0 && kind !== LOWER && (kind !== UPPER || previous === LOWER)) {
      wordCost += word;
      if (letters > 8) wordCost += (letters - 8) * beyond8;
      if (letters > 12) wordCost += (letters - 12) * beyond12;
      letters = 0;
    }
    if (kind <= DIGIT && kind !== 0) {
      if (wordLength > 0 && (kind === DIGIT || previous === DIGIT)) wordSwitches++;
      previous = kind;
      // The rest of the run this character starts changes no price, only the counters: read it whole.
      const end = asciiRunEnd(text, index + 1, kind);
      const run = end - index;
      wordLength += run;
      if (kind === DIGIT) digits += run;
      else letters += run;
      index = end;
      continue;
    }
    previous = kind;
    if (wordLength > 0) {
      tokens += wordSwitches >= 3 ? wordLength * randomCharacter : wordCost;
      wordLength = 0;
      wordSwitches = 0;
      wordCost = 0;
    }
    if (kind === SPACE) {
      const end = asciiRunEnd(text, index + 1, SPACE);
      spaces += end - index;
      index = end;
      continue;
    }
    tokens += start[kind] as number;
    index++;
  }
  return tokens;
}
