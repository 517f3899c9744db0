import { ROUGH_WEIGHTS, type RoughWeights } from './rough-calibration.js';

// Letters and digits come first so that `kind <= DIGIT` tells a word's characters from the rest.
const LOWER = 0;
const UPPER = 1;
const DIGIT = 2;
const SPACE = 3;
const TAB = 4;
const LINE_BREAK = 5;
const PUNCTUATION = 6;
const CJK = 7;
const SYMBOL = 8;
const SURROGATE = 9;
const SCRIPT = 10;
const END = 11;

function classOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 32) return SPACE;
  if (code === 9) return TAB;
  if (code === 10 || code === 13) return LINE_BREAK;
  if (code < 0xc0 || code === 0xd7 || code === 0xf7) return PUNCTUATION;
  if (code < 0x250) return LOWER;
  if (code < 0x2000) return SCRIPT;
  if (code < 0x2e80) return SYMBOL;
  return code >= 0xd800 && code <= 0xdfff ? SURROGATE : CJK;
}

/**
 * The pricing loop reads a copy of the text with one byte per UTF-16 code unit: an ASCII character as itself, any
 * other as a byte of its class (`a` for a Latin letter, `.` for Latin-1 punctuation, 0x81–0x84 for the classes ASCII
 * lacks), and END_BYTE after the last one. The copy is made from the text's UTF-8, which `TextEncoder` writes natively
 * (an ASCII text's UTF-8 is the copy itself), and typed-array reads cost less than `charCodeAt`, which checks the
 * string's representation every time.
 */
const END_BYTE = 0x80;
const CLASS_BYTE = [0x61, 0x41, 0x30, 0x20, 0x09, 0x0a, 0x2e, 0x81, 0x82, 0x83, 0x84];

const BYTE_CLASS = (() => {
  const table = new Uint8Array(256).fill(END);
  for (let code = 0; code < 0x80; code++) table[code] = classOf(code);
  for (let kind = CJK; kind <= SCRIPT; kind++) table[CLASS_BYTE[kind] as number] = kind;
  return table;
})();

/** Byte of every code unit below U+2E80 (from there on, all are CJK but the surrogates). */
const UNIT_BYTE = (() => {
  const table = new Uint8Array(0x2e80);
  for (let code = 0; code < 0x2e80; code++)
    table[code] = code < 0x80 ? code : (CLASS_BYTE[classOf(code)] as number);
  return table;
})();
const SURROGATE_BYTE = CLASS_BYTE[SURROGATE] as number;
const CJK_BYTE = CLASS_BYTE[CJK] as number;

const encoder = new TextEncoder();
/**
 * Most code units copied at once. The buffer for the copy is kept between calls (grown by doubling, up to the three
 * bytes per code unit the UTF-8 of a piece may take), and a longer text is priced a piece at a time, so a call
 * allocates nothing but for a word or a run of one class longer than a piece.
 */
const PIECE = 1 << 20;
let kept = new Uint8Array(1 << 10);

/** The kept buffer, grown to hold `length` bytes and the end byte. */
function keptBuffer(length: number): Uint8Array {
  if (kept.length <= length)
    kept = new Uint8Array(Math.max(length + 1, Math.min(PIECE + 1, kept.length * 2)));
  return kept;
}

/**
 * Below this length a text is copied unit by unit: the call to `encodeInto` is not worth it (the corpus
 * micro-benchmark was flat from 8 to 64).
 */
const ENCODED_FROM = 32;

/**
 * True when `bytes` now holds the copy of `text`, made from its UTF-8 (`bytes` must hold three bytes per code
 * unit): ASCII as it is, any other sequence turned into the byte of its code point's class in place (a sequence
 * never yields more code units than it has bytes). False, the copy unfinished, for a short text or one whose
 * UTF-8 holds U+FFFD, which also stands for a lone surrogate there. Reading the typed array costs the same
 * whatever V8 compiled: a `charCodeAt` loop over the whole text ran 3.5 times slower in some processes than in
 * others, depending on when its optimization ran.
 */
function copiedUtf8(text: string, bytes: Uint8Array): boolean {
  if (text.length < ENCODED_FROM) return false;
  const { read, written } = encoder.encodeInto(text, bytes);
  if (read !== text.length) return false;
  if (written === text.length) return true;
  // A byte no UTF-8 sequence starts with ends the last ASCII run without a bounds test per byte (the buffer holds
  // three bytes per code unit, so there is room past what was written).
  bytes[written] = 0xff;
  let to = 0;
  let from = 0;
  for (;;) {
    let lead = bytes[from] as number;
    while (lead < 0x80) {
      bytes[to++] = lead;
      lead = bytes[++from] as number;
    }
    if (from >= written) return true;
    if (lead < 0xe0) {
      bytes[to++] = UNIT_BYTE[((lead & 0x1f) << 6) | ((bytes[from + 1] as number) & 0x3f)] as number;
      from += 2;
    } else if (lead < 0xf0) {
      const code =
        ((lead & 0x0f) << 12) |
        (((bytes[from + 1] as number) & 0x3f) << 6) |
        ((bytes[from + 2] as number) & 0x3f);
      if (code === 0xfffd) return false;
      bytes[to++] = code < 0x2e80 ? (UNIT_BYTE[code] as number) : CJK_BYTE;
      from += 3;
    } else {
      // A code point beyond U+FFFF: two surrogates in UTF-16.
      bytes[to++] = SURROGATE_BYTE;
      bytes[to++] = SURROGATE_BYTE;
      from += 4;
    }
  }
}

/** Writes the bytes of the code units of `text` from `from` to `to` at the start of `bytes`. */
function copyUnits(text: string, from: number, to: number, bytes: Uint8Array): void {
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    bytes[index - from] =
      code < 0x2e80
        ? (UNIT_BYTE[code] as number)
        : code >= 0xd800 && code <= 0xdfff
          ? SURROGATE_BYTE
          : CJK_BYTE;
  }
}

/**
 * The last place up to `end` where a piece of the copy in `bytes` may end, or 0 if there is none: between two
 * runs, but not inside a word nor between a space and a digit, so that no price of what comes before depends on
 * what comes after, and pricing the pieces in turn adds the same amounts in the same order as the whole text.
 */
function lastCut(bytes: Uint8Array, end: number): number {
  let after = BYTE_CLASS[bytes[end] as number] as number;
  for (let cut = end; cut > 0; cut--) {
    const before = BYTE_CLASS[bytes[cut - 1] as number] as number;
    if (before !== after && (before > DIGIT || after > DIGIT) && (before !== SPACE || after !== DIGIT))
      return cut;
    after = before;
  }
  return 0;
}

/**
 * A text longer than a piece, priced a piece at a time. Each copy holds one code unit past the piece, to see
 * where it may end. Only a word or a run of one class longer than a piece leaves no place to cut: the rest of the
 * text then gets a buffer of its own. Linear: a cut falls well before the end of a copy only ahead of such a word
 * or run, which the next copy ends or hands to that buffer, so no code unit is copied more than twice.
 */
function piecewiseCost(text: string, weights: RoughWeights): number {
  const length = text.length;
  const bytes = keptBuffer(3 * (PIECE + 1));
  let tokens = 0;
  let from = 0;
  while (length - from > PIECE) {
    copyPiece(text, from, from + PIECE + 1, bytes);
    const cut = lastCut(bytes, PIECE);
    if (cut === 0) break;
    bytes[cut] = END_BYTE;
    tokens = bytesCost(bytes, weights, tokens);
    from += cut;
  }
  if (length - from > PIECE) {
    const rest = new Uint8Array(length - from + 1);
    copyUnits(text, from, length, rest);
    rest[length - from] = END_BYTE;
    return bytesCost(rest, weights, tokens);
  }
  copyPiece(text, from, length, bytes);
  bytes[length - from] = END_BYTE;
  return bytesCost(bytes, weights, tokens);
}

/**
 * Writes the bytes of the code units of `text` from `from` to `to` at the start of `bytes` (three bytes per unit
 * long), from their UTF-8 like a whole text's: a `charCodeAt` loop over megabytes ran 3.5 times slower in some
 * processes. A piece cut inside a surrogate pair holds a lone surrogate, whose UTF-8 is U+FFFD: it is then copied
 * unit by unit.
 */
function copyPiece(text: string, from: number, to: number, bytes: Uint8Array): void {
  if (!copiedUtf8(text.slice(from, to), bytes)) copyUnits(text, from, to, bytes);
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

// A process prices its texts with one set of weights (calibration aside): the last set is checked before the map.
let lastWeights: RoughWeights | undefined;
let lastPrices: ClassPrices | undefined;

function pricesOf(weights: RoughWeights): ClassPrices {
  if (weights === lastWeights) return lastPrices as ClassPrices;
  const known = pricesByWeights.get(weights) ?? newPrices(weights);
  lastWeights = weights;
  lastPrices = known;
  return known;
}

function newPrices(weights: RoughWeights): ClassPrices {
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
 * measured error). Linear, never throws, and allocation-free (the buffer its copy goes to is kept) unless one word
 * or run of a class is over a million code units long. A non-empty text costs at least one token.
 */
export function estimateTextTokens(text: string, weights: RoughWeights = ROUGH_WEIGHTS): number {
  if (text.length === 0) return 0;
  return Math.max(1, Math.round(roughTextCost(text, weights)));
}

/** The unrounded sum of {@link estimateTextTokens}' prices (exported for the equivalence tests). */
export function roughTextCost(text: string, weights: RoughWeights): number {
  const length = text.length;
  if (length > PIECE) return piecewiseCost(text, weights);
  const bytes = keptBuffer(3 * length);
  if (!copiedUtf8(text, bytes)) copyUnits(text, 0, length, bytes);
  bytes[length] = END_BYTE;
  return bytesCost(bytes, weights, 0);
}

/**
 * `tokensBefore` plus the prices of the byte copy up to its end byte, one run of a class at a time. A run is
 * priced once the class after it is known, and the additions to `tokens` and `wordCost` keep the order of the
 * per-character loop this replaced, so the floating-point sums are the same to the last bit.
 */
function bytesCost(bytes: Uint8Array, weights: RoughWeights, tokensBefore: number): number {
  const { continuation, start } = pricesOf(weights);
  const word = weights.word;
  const beyond8 = weights.letterBeyond8;
  const beyond12 = weights.letterBeyond12;
  const digitGroup = weights.digitGroup;
  const indentation = weights.indentation;
  const spaceBeforeDigit = weights.spaceBeforeDigit;
  const randomCharacter = weights.randomCharacter;
  // The unary plus is no-op arithmetic, but with a bare `= tokensBefore` V8 compiled the loop 20 % slower (6.8
  // against 5.7 ms on the corpus micro-benchmark).
  let tokens = +tokensBefore;
  // The letters-and-digits run being read ("word"): where it began (set where every other run ends), its letter
  // and digit groups' prices so far, and how often it switched between letters and digits.
  let wordStart = 0;
  let wordCost = 0;
  let switches = 0;
  let index = 0;
  let kind = BYTE_CLASS[bytes[0] as number] as number;
  for (;;) {
    let end = index + 1;
    let next: number;
    if (kind <= DIGIT) {
      // A subtraction and an unsigned compare tell letters and digits, one table read fewer per character.
      if (kind === DIGIT) {
        while (((bytes[end] as number) - 0x30) >>> 0 < 10) end++;
        next = BYTE_CLASS[bytes[end] as number] as number;
        wordCost += Math.ceil((end - index) / 3) * digitGroup;
      } else {
        // Capitals then lower-case letters make one group ("Word", "HTTPServer"); a capital after a lower-case
        // letter starts the next ("camelCase" has two).
        if (kind === UPPER) while (((bytes[end] as number) - 0x41) >>> 0 < 26) end++;
        while (((bytes[end] as number) - 0x61) >>> 0 < 26) end++;
        next = BYTE_CLASS[bytes[end] as number] as number;
        const letters = end - index;
        wordCost += word;
        if (letters > 8) wordCost += (letters - 8) * beyond8;
        if (letters > 12) wordCost += (letters - 12) * beyond12;
      }
      if (next > DIGIT) {
        tokens += switches >= 3 ? (end - wordStart) * randomCharacter : wordCost;
        wordCost = 0;
        switches = 0;
      } else if (next === DIGIT || kind === DIGIT) {
        // The word goes on; a new capital group is no switch.
        switches++;
      }
    } else if (kind === SPACE) {
      while (bytes[end] === 0x20) end++;
      next = BYTE_CLASS[bytes[end] as number] as number;
      if (end - index > 1) tokens += indentation;
      else if (next === DIGIT) tokens += spaceBeforeDigit;
      wordStart = end;
    } else if (kind === END) {
      return tokens;
    } else {
      tokens += start[kind] as number;
      const more = continuation[kind] as number;
      next = BYTE_CLASS[bytes[end] as number] as number;
      while (next === kind) {
        tokens += more;
        end++;
        next = BYTE_CLASS[bytes[end] as number] as number;
      }
      wordStart = end;
    }
    index = end;
    kind = next;
  }
}

/**
 * Texts priced at load, between them every class and every kind of run (a word past 12 letters, a random-looking
 * one, a space before a digit, indentation, each class beyond ASCII), each way a text is copied (from its UTF-8,
 * unit by unit when short, unit by unit after a U+FFFD). V8 optimizes the pricing while the first texts are
 * counted, and an operation none of them reached (the price of letters past the 12th) had no type feedback then:
 * the first text reaching it threw the optimized code away mid-count (once per process, seen with --trace-deopt;
 * the first count of the corpus in a process took a third longer). V8 collects feedback for a function only once
 * it has been called a few times, hence the rounds; and with 50 of them (not with 12 or 30) the loop is optimized
 * from these calls, not while the first long text is counted: code optimized in the middle of a long loop (on-stack
 * replacement) priced whole JSONL files about 1.35 times slower for the rest of the process. The rounds cost about
 * half a millisecond at load.
 */
const WARM_UP = [
  'Camel caseWord HTTPServer internationalization a1b2c3d4 x7 \t\n\r\n    12345 ,.;!? \u00e9\u00d7\u0436\u2192\u4e2d\ud83d\ude00',
  'A lone \ud800 surrogate, then \ufffd and \u4e2d\ud83d\ude00 beyond it',
  'Ab 1 \u00e9\u4e2d\ud83d\ude00\u2192\ud800',
];
for (let round = 0; round < 50; round++) for (const text of WARM_UP) estimateTextTokens(text);
