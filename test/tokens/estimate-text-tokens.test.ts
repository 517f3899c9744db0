import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTextTokens, roughTextCost } from '../../src/tokens/estimate-text-tokens.js';
import { ROUGH_WEIGHTS, type RoughWeights } from '../../src/tokens/rough-calibration.js';
import { type CorpusDir, corpusFiles, readCorpusFile } from '../support/corpus.js';

// The estimator as it was before it read whole ASCII runs at once (issue 15), kept as the reference the faster
// loop must agree with exactly: any difference, even in the order floating-point costs are added, would change
// the counts every engine budgets with.
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

/** Cost of one more character of a run that already started (same class as the character before it). */
function continuationCost(kind: number, weights: RoughWeights): number {
  switch (kind) {
    case PUNCTUATION:
      return weights.punctuation;
    case CJK:
      return weights.cjk;
    case SYMBOL:
      return weights.symbol;
    case SURROGATE:
      return weights.astral / 2;
    case SCRIPT:
      return weights.scriptLetter;
    case TAB:
      return weights.tab;
    default:
      return 0;
  }
}

/** Cost of a character that starts a run (its class differs from the character before it). */
function startCost(kind: number, weights: RoughWeights): number {
  switch (kind) {
    case LINE_BREAK:
      return weights.lineBreak;
    case PUNCTUATION:
      return weights.punctuation + weights.punctuationRun;
    case SYMBOL:
      return weights.symbol + weights.symbolRun;
    default:
      return continuationCost(kind, weights);
  }
}

/**
 * Estimated tokens of `text`: one pass over its UTF-16 code units pricing words, numbers, punctuation runs,
 * whitespace runs and non-Latin characters with `weights` (see {@link RoughWeights} for the calibration and its
 * measured error). Linear, allocation-free, never throws. A non-empty text costs at least one token.
 */
function referenceCost(text: string, weights: RoughWeights = ROUGH_WEIGHTS): number {
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
  for (let index = 0; index <= length; index++) {
    const kind = index === length ? 0 : classOf(text.charCodeAt(index));
    if (kind === previous) {
      // Most characters continue a run: the hot path only counts them.
      if (kind === LOWER || kind === UPPER) letters++;
      else if (kind === DIGIT) digits++;
      else if (kind === SPACE) spaces++;
      else tokens += continuationCost(kind, weights);
      if (kind <= DIGIT) wordLength++;
      continue;
    }
    if (letters > 0 && ((kind !== LOWER && kind !== UPPER) || (kind === UPPER && previous === LOWER))) {
      wordCost += weights.word;
      if (letters > 8) wordCost += (letters - 8) * weights.letterBeyond8;
      if (letters > 12) wordCost += (letters - 12) * weights.letterBeyond12;
      letters = 0;
    }
    if (digits > 0) {
      wordCost += Math.ceil(digits / 3) * weights.digitGroup;
      digits = 0;
    }
    if (spaces > 0) {
      if (spaces > 1) tokens += weights.indentation;
      else if (kind === DIGIT) tokens += weights.spaceBeforeDigit;
      spaces = 0;
    }
    if (kind === LOWER || kind === UPPER || kind === DIGIT) {
      if (wordLength > 0 && (kind === DIGIT || previous === DIGIT)) wordSwitches++;
      wordLength++;
      if (kind === DIGIT) digits++;
      else letters++;
    } else {
      if (wordLength > 0) {
        tokens += wordSwitches >= 3 ? wordLength * weights.randomCharacter : wordCost;
        wordLength = 0;
        wordSwitches = 0;
        wordCost = 0;
      }
      if (kind === SPACE) spaces++;
      else tokens += startCost(kind, weights);
    }
    previous = kind;
  }
  return tokens;
}

/** Characters from every class the estimator tells apart, so generated texts switch class often. */
const CHARACTERS = [
  ...'abcxyzABCXYZ0123456789     \t\t\n\r\n{}[]":,.;-_/\\=+*#@!?()<>|&%$~`\'',
  'é',
  'ß',
  'Ω',
  'Ж',
  'ع',
  '中',
  '文',
  '字',
  '日',
  '€',
  '→',
  '✓',
  '×',
  '÷',
  '\u2028',
  '\ud83d\ude00',
  '\ud800',
];
const text = fc
  .array(fc.constantFrom(...CHARACTERS), { maxLength: 400 })
  .map((characters) => characters.join(''));
const word = fc.stringMatching(/^[A-Za-z0-9]{1,30}$/);
const wordy = fc
  .array(fc.oneof(word, fc.constantFrom(' ', '  ', '\n', '.', '_', '-', '"', ': ')), { maxLength: 60 })
  .map((pieces) => pieces.join(''));

/** Pieces of every kind of text the estimator meets, and of some it should survive. */
const ASCII = [...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~\t\n\r\u0000\u007f'];
const ascii = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...ASCII), minLength, maxLength });
const prose = fc
  .array(fc.oneof(word, fc.constantFrom(' ', ', ', '. ', '\n\n', ' - ', '? ', "'s ")), { maxLength: 120 })
  .map((pieces) => pieces.join(''));
const code = fc
  .array(
    fc.oneof(
      word,
      fc.constantFrom(
        '  ',
        '    ',
        '\t',
        '\n',
        '\r\n',
        '();',
        ' => ',
        '{',
        '}',
        ' = ',
        '0x1F',
        '// ',
        'camelCase',
        'HTTPServer',
      ),
    ),
    { maxLength: 120 },
  )
  .map((pieces) => pieces.join(''));
const json = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value, null, 2)),
);
const digits = fc.stringMatching(/^[0-9 .,:-]{0,200}$/);
const script = fc.string({
  unit: fc
    .oneof(
      fc.integer({ min: 0x80, max: 0x24f }),
      fc.integer({ min: 0x250, max: 0x1fff }),
      fc.integer({ min: 0x2000, max: 0x2e7f }),
      fc.integer({ min: 0x2e80, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    )
    .map((code) => String.fromCharCode(code)),
  maxLength: 200,
});
const mixed = fc
  .array(
    fc.oneof(
      word,
      fc.constantFrom(
        ' ',
        '\t',
        '\n',
        '.',
        'é',
        'Привет',
        'مرحبا',
        '中文字',
        'カタカナ',
        '한국어',
        '—',
        '→',
        '€',
      ),
      fc.constantFrom(
        '\ud83d\ude00',
        '\ud83d\udc4d\ud83c\udffd',
        '\ud800',
        '\udfff',
        'a\ud800b',
        '\udc00\ud800',
      ),
    ),
    { maxLength: 80 },
  )
  .map((pieces) => pieces.join(''));
const runs = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'a',
        'Z',
        '7',
        ' ',
        '\t',
        '\n',
        '\r\n',
        '.',
        '中',
        '→',
        'é',
        'Ж',
        '\ud83d\ude00',
        '\ud800',
        'ab1',
      ),
      fc.integer({ min: 1, max: 2000 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.map(([piece, count]) => piece.repeat(count)).join(''));
const anyText = fc.oneof(
  prose,
  code,
  json,
  digits,
  script,
  mixed,
  runs,
  text,
  wordy,
  ascii(0, 300),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
);

/** Every string value of a JSON value, depth first. */
function stringsOf(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringsOf(item, into);
}

/** Real texts from the corpus (the committed sample without the shared one): string values and raw slices. */
function corpusTexts(): string[] {
  const texts: string[] = [];
  for (const dir of [
    'anthropic',
    'claude-code',
    'openai',
    'sharegpt',
  ] as const satisfies readonly CorpusDir[]) {
    for (const path of corpusFiles(dir)) {
      const raw = readCorpusFile(path);
      const values: string[] = [];
      for (const line of path.endsWith('.jsonl') ? raw.split('\n') : [raw]) {
        try {
          stringsOf(JSON.parse(line), values);
        } catch {
          // Not JSON: its raw slices below still count.
        }
      }
      texts.push(...values.slice(0, 3_000));
      const slices = 12;
      for (let slice = 0; slice < slices; slice++) {
        const from = Math.floor((raw.length * slice) / slices);
        texts.push(raw.slice(from, from + 8_192));
      }
    }
  }
  return texts;
}

describe('estimateTextTokens', () => {
  it('agrees exactly with the reference estimator on text of every character class', () => {
    fc.assert(
      fc.property(fc.oneof(text, wordy, fc.string({ unit: 'binary', maxLength: 200 })), (sample) => {
        expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees exactly with the reference estimator where the copy is read from UTF-8: every sequence length, U+FFFD and lone surrogates', () => {
    // Code points at the edges of UTF-8's sequence lengths and of the classes, U+FFFD (which also stands for a
    // lone surrogate in UTF-8), lone and reversed surrogates, and pairs.
    const edges = [
      '\u0080',
      '\u00bf',
      '\u00c0',
      '\u00ff',
      '\u0249',
      '\u0250',
      '\u07ff',
      '\u0800',
      '\u1fff',
      '\u2000',
      '\u2e7f',
      '\u2e80',
      '\ud7ff',
      '\ue000',
      '\ufffd',
      '\uffff',
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\ude00\ud83d',
      '\ud83d\ude00',
      '\udbff\udfff',
    ];
    const mixed = fc
      .array(fc.oneof(fc.constantFrom(...edges), word, fc.constantFrom(' ', '\n', '.', '  ')), {
        minLength: 1,
        maxLength: 80,
      })
      .map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.oneof(mixed, fc.string({ unit: 'binary', minLength: 32, maxLength: 300 })), (sample) => {
        expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees exactly with the reference estimator under other weights', () => {
    const weights = fc.record(
      Object.fromEntries(
        Object.keys(ROUGH_WEIGHTS).map((key) => [key, fc.double({ min: 0, max: 3, noNaN: true })]),
      ) as { [K in keyof RoughWeights]: fc.Arbitrary<number> },
    );
    fc.assert(
      fc.property(fc.oneof(text, wordy), weights, (sample, custom) => {
        expect(roughTextCost(sample, custom)).toBe(referenceCost(sample, custom));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees exactly with the reference estimator on generated text of every kind', () => {
    fc.assert(
      fc.property(anyText, (sample) => {
        expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees exactly with the reference estimator on ASCII text of every length around the copy threshold', () => {
    fc.assert(
      fc.property(fc.oneof(ascii(0, 70), wordy, prose, code), (sample) => {
        expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees exactly with the reference estimator under any weights, infinite, negative zero and NaN included', () => {
    const weights = fc.record(
      Object.fromEntries(Object.keys(ROUGH_WEIGHTS).map((key) => [key, fc.double()])) as {
        [K in keyof RoughWeights]: fc.Arbitrary<number>;
      },
    );
    fc.assert(
      fc.property(anyText, weights, (sample, custom) => {
        expect(roughTextCost(sample, custom)).toBe(referenceCost(sample, custom));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees exactly with the reference estimator on real texts from the corpus', () => {
    const texts = corpusTexts();
    expect(texts.length).toBeGreaterThan(100);
    for (const sample of texts) expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
  });

  it('prices texts longer than the buffer it keeps, and shorter texts after them, as the reference does', () => {
    const line = 'The quick brown fox jumps over 13 lazy dogs; x86_64 0xDEADbeef\n';
    const long = line.repeat(Math.ceil(1_100_000 / line.length));
    for (const sample of [
      long,
      `${long}é中\ud83d\ude00`,
      'a'.repeat(1_048_576),
      long.slice(0, 40),
      'tail',
      'ü',
    ]) {
      expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
    }
  });

  it('prices a long text whose pieces split a surrogate pair or hold characters beyond ASCII as the reference does', () => {
    const piece = 1_048_576;
    const line = 'Résumé: naïve café → 中文 ok 42\n';
    const body = line.repeat(Math.ceil((piece + 10) / line.length));
    // A pair across the end of the first copy (units piece and piece + 1), and one a unit later.
    for (const at of [piece - 1, piece, piece + 1]) {
      const sample = `${body.slice(0, at)}\ud83d\ude00${body.slice(at)}`;
      expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
    }
  });

  it('agrees exactly with the reference estimator on texts priced a piece at a time', () => {
    const piece = 1 << 20;
    fc.assert(
      fc.property(
        anyText.filter((sample) => sample.length > 0),
        anyText,
        fc.integer({ min: 1, max: 5_000 }),
        (sample, prefix, over) => {
          const long = prefix + sample.repeat(Math.ceil((piece + over) / sample.length));
          expect(roughTextCost(long, ROUGH_WEIGHTS)).toBe(referenceCost(long));
        },
      ),
      { numRuns: 30 },
    );
    for (const long of [
      'a'.repeat(piece + 10),
      `x. ${'b'.repeat(piece + 3)}`,
      `. ${'a'.repeat(piece)} end`,
      `${' '.repeat(piece)}7 and ${'9'.repeat(piece)}`,
      `${'Ab1'.repeat(piece / 2)}.${'\n'.repeat(piece + 1)}`,
      'Ünïcödé and ASCII: {"key": [12, 345.6]}\n\t'.repeat(Math.ceil((2.5 * piece) / 40)),
    ]) {
      expect(roughTextCost(long, ROUGH_WEIGHTS)).toBe(referenceCost(long));
    }
  });

  it('prices long runs of one class as the reference does', () => {
    expect(estimateTextTokens('')).toBe(0);
    for (const sample of [
      'a'.repeat(100_000),
      'A'.repeat(5_000) + 'b'.repeat(5_000),
      '9'.repeat(70_001),
      `${' '.repeat(4_097)}7`,
      `x${'é'.repeat(3_000)}1`,
    ]) {
      expect(roughTextCost(sample, ROUGH_WEIGHTS)).toBe(referenceCost(sample));
    }
  });
});
