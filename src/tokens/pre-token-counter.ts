/**
 * The parts of a gpt-tokenizer encoding's byte-pair core that counting reads. They are not in gpt-tokenizer's
 * public types, so {@link bytePairCoreOf} checks their shape at run time and the caller falls back to the public
 * `countTokens` when a release changes them.
 */
export interface BytePairCore {
  /** The encoding's pre-tokenizer (global, Unicode). */
  readonly tokenSplitRegex: RegExp;
  /** Rank of every token whose bytes are valid UTF-8, by its text. */
  readonly bytePairStringRankEncoder: ReadonlyMap<string, number>;
  readonly textEncoder: { encode(text: string): Uint8Array };
  /** Tokens of one pre-token's UTF-8 bytes. */
  bytePairMerge(bytes: Uint8Array): readonly number[];
}

/** Options of {@link createPreTokenCounter}. */
export interface PreTokenCounterOptions {
  /**
   * Distinct pre-tokens whose counts are kept before the cache starts over. Code, logs and JSON repeat the same
   * words, indentation and punctuation runs; on the whole corpus 64 Ki entries miss about 4 % of pre-tokens.
   * @default 65536
   */
  readonly cacheSize?: number;
}

/** The byte-pair core of a gpt-tokenizer encoding module, or `undefined` when its internals are not as expected. */
export function bytePairCoreOf(api: unknown): BytePairCore | undefined {
  const core = (api as { bytePairEncodingCoreProcessor?: Partial<BytePairCore> } | null)
    ?.bytePairEncodingCoreProcessor;
  if (typeof core !== 'object' || core === null) return undefined;
  const shaped =
    core.tokenSplitRegex instanceof RegExp &&
    core.bytePairStringRankEncoder instanceof Map &&
    typeof core.textEncoder?.encode === 'function' &&
    typeof core.bytePairMerge === 'function';
  return shaped ? (core as BytePairCore) : undefined;
}

/**
 * A count-only tokenizer over `core`, equal to gpt-tokenizer's `countTokens` with special-token text counted as
 * text: it cuts a piece with the encoding's own pre-tokenizer and sums the tokens of each pre-token, which are
 * cached per distinct pre-token in a bounded map (cleared when full, so a lookup never pays for eviction). An
 * ASCII pre-token is merged on its text, which gives the same tokens as merging its bytes and skips encoding
 * and decoding every candidate pair; other pre-tokens go through gpt-tokenizer's own merge. A piece the
 * pre-tokenizer cannot cover end to end is counted by `fallback`.
 */
export function createPreTokenCounter(
  core: BytePairCore,
  fallback: (piece: string) => number,
  options: PreTokenCounterOptions = {},
): (piece: string) => number {
  const cacheSize = options.cacheSize ?? 65_536;
  const ranks = core.bytePairStringRankEncoder;
  // Sticky: each match must start where the previous one ended, so a gap is detected instead of skipped.
  const splitter = new RegExp(core.tokenSplitRegex.source, 'uy');
  const cache = new Map<string, number>();

  const countPreToken = (preToken: string): number => {
    if (ranks.has(preToken)) return 1;
    if (isAscii(preToken)) return mergeAscii(preToken, ranks);
    return core.bytePairMerge(core.textEncoder.encode(preToken)).length;
  };

  return (piece: string): number => {
    let total = 0;
    let start = 0;
    splitter.lastIndex = 0;
    while (start < piece.length && splitter.test(piece)) {
      const end = splitter.lastIndex;
      if (end <= start) break;
      const preToken = piece.slice(start, end);
      start = end;
      const cached = cache.get(preToken);
      if (cached !== undefined) {
        total += cached;
        continue;
      }
      const tokens = countPreToken(preToken);
      if (cache.size >= cacheSize) cache.clear();
      cache.set(detached(preToken), tokens);
      total += tokens;
    }
    return start === piece.length ? total : fallback(piece);
  };
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}

/**
 * A copy of a short string that does not keep its source alive: V8 makes a slice of 13 or more characters a view
 * into the whole source text, and a cached key must not pin a multi-megabyte transcript. Concatenating and
 * slicing again leaves a view into a fresh string one character longer than the key.
 */
function detached(key: string): string {
  return key.length < 13 ? key : ` ${key}`.slice(1);
}

/**
 * Token count of an ASCII pre-token by gpt-tokenizer's merge rule (repeatedly merge the adjacent pair of lowest
 * rank, leftmost first) applied to its characters, which are its bytes.
 */
function mergeAscii(word: string, ranks: ReadonlyMap<string, number>): number {
  const starts: number[] = [];
  const pairRanks: number[] = [];
  for (let index = 0; index <= word.length; index++) {
    starts.push(index);
    pairRanks.push(
      index < word.length - 1 ? rankOf(ranks, word, index, index + 2) : Number.POSITIVE_INFINITY,
    );
  }
  const pairRank = (part: number): number => {
    const end = starts[part + 2];
    return end === undefined ? Number.POSITIVE_INFINITY : rankOf(ranks, word, starts[part] ?? 0, end);
  };
  while (starts.length > 1) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let part = 0; part < pairRanks.length - 1; part++) {
      const rank = pairRanks[part] ?? Number.POSITIVE_INFINITY;
      if (rank < lowest) {
        lowest = rank;
        at = part;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    pairRanks[at] = pairRank(at);
    if (at > 0) pairRanks[at - 1] = pairRank(at - 1);
  }
  return starts.length - 1;
}

function rankOf(ranks: ReadonlyMap<string, number>, word: string, start: number, end: number): number {
  return ranks.get(word.slice(start, end)) ?? Number.POSITIVE_INFINITY;
}
