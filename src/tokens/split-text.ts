/**
 * Limits on what one tokenizer call may receive. Byte-pair encoders are super-linear in the length of a single
 * pre-token (measured on this project's reference machine: 64 KiB of `a` takes gpt-tokenizer 3 s, 256 KiB 45 s),
 * and a pre-token can be as long as a run of letters, spaces or punctuation with nothing in between. Cutting such
 * runs keeps exact counting linear on any input.
 */
export interface SplitLimits {
  /**
   * Longest run of one character class (letters, digits, whitespace, punctuation) handed to the tokenizer
   * uncut. Longer runs are cut every `maxRun` characters (digit runs at a multiple of three), which can shift
   * the count by about a token per cut; the corpus has no such run except digit dumps, whose count the cut
   * leaves unchanged.
   * @default 256
   */
  readonly maxRun: number;
  /**
   * Longest piece handed to the tokenizer in one call. Pieces end where OpenAI pre-tokenizers start a new
   * pre-token anyway (before a space that follows a word, after a line break) when the window has such a
   * place, else after a word or number: over the whole corpus no o200k_base or cl100k_base count changed. It
   * bounds the work of tokenizers that see a whole text as one word (Hugging Face tokenizers without a
   * pre-tokenizer).
   * @default 4096
   */
  readonly maxPiece: number;
}

/** The limits exact counters use unless told otherwise. */
export const DEFAULT_SPLIT_LIMITS: SplitLimits = { maxRun: 256, maxPiece: 4096 };

const WHITESPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const PUNCTUATION = 3;

/**
 * Character class of a UTF-16 code unit. Everything outside ASCII counts as a letter: both halves of a surrogate
 * pair then share a class, so no cut ever falls between them at a class change.
 */
function classOf(code: number): number {
  if (code >= 0x80) return LETTER;
  if (code === 32 || (code >= 9 && code <= 13)) return WHITESPACE;
  if (code >= 48 && code <= 57) return DIGIT;
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return LETTER;
  return PUNCTUATION;
}

/**
 * True when OpenAI-style pre-tokenizers always start a new pre-token at this class change: before a space that
 * follows a non-space, or at the first non-space after a newline (unless it is `/`, which o200k glues to a
 * preceding punctuation-and-newline token).
 */
function isExactBoundary(previous: number, previousClass: number, code: number, codeClass: number): boolean {
  if (code === 32) return previousClass !== WHITESPACE;
  return (previous === 10 || previous === 13) && codeClass !== WHITESPACE && code !== 47;
}

/**
 * True at a class change that usually, but not always, starts a pre-token: after a word or number, or into a
 * number. (Punctuation followed by letters is not one: `"foo` is a single pre-token.)
 */
function isLikelyBoundary(previousClass: number, codeClass: number): boolean {
  if (codeClass === WHITESPACE) return false;
  return previousClass === LETTER || previousClass === DIGIT || codeClass === DIGIT;
}

/**
 * Longest uncut run of a class. Digit runs are cut at a multiple of three because OpenAI encodings group digits
 * by three from the left, so such a cut leaves the count unchanged.
 */
function runLimit(maxRun: number, codeClass: number): number {
  return codeClass === DIGIT && maxRun >= 3 ? maxRun - (maxRun % 3) : maxRun;
}

function splitsSurrogatePair(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0xdc00 || code > 0xdfff) return false;
  const previous = text.charCodeAt(index - 1);
  return previous >= 0xd800 && previous <= 0xdbff;
}

/**
 * Sums `countPiece` over pieces of `text` that respect `limits`. The pieces concatenate to `text` exactly, a
 * surrogate pair is never split, and each piece is at most `maxPiece` code units long (one more when a pair
 * straddles the limit) with no class run longer than `maxRun`. One pass, so the whole count is linear in the
 * length of `text` whatever the tokenizer does inside a piece.
 */
export function sumOverPieces(
  text: string,
  limits: SplitLimits,
  countPiece: (piece: string) => number,
): number {
  const length = text.length;
  if (length <= limits.maxRun && length <= limits.maxPiece) return length === 0 ? 0 : countPiece(text);
  let total = 0;
  let start = 0;
  let exact = -1;
  let likely = -1;
  let runStart = 0;
  let previous = text.charCodeAt(0);
  let previousClass = classOf(previous);
  for (let index = 1; index < length; index++) {
    const code = text.charCodeAt(index);
    const codeClass = classOf(code);
    if (codeClass !== previousClass) {
      runStart = index;
      if (isExactBoundary(previous, previousClass, code, codeClass)) exact = index;
      else if (isLikelyBoundary(previousClass, codeClass)) likely = index;
    } else if (index - runStart >= runLimit(limits.maxRun, codeClass) && !splitsSurrogatePair(text, index)) {
      total += countPiece(text.slice(start, index));
      start = index;
      runStart = index;
    }
    if (index - start >= limits.maxPiece) {
      let cut = exact > start ? exact : likely > start ? likely : index;
      if (cut === index && splitsSurrogatePair(text, index)) cut = index + 1;
      if (cut < length) {
        total += countPiece(text.slice(start, cut));
        start = cut;
        if (runStart < start) runStart = start;
      }
    }
    previous = code;
    previousClass = codeClass;
  }
  return start < length ? total + countPiece(text.slice(start)) : total;
}
