/** Up to this many artifacts still to come, a kept line is searched for each before its pieces are collected. */
const FEW = 16;

/**
 * The artifacts fitting will still look up after a given rank. The pieces a kept line shows matter only to the
 * artifacts ranked after it, and most lines rank after every artifact (the action log) or after all but a few:
 * a line that holds none of those few as a substring cannot show one whole, and searching a line for a few
 * strings costs far less than cutting it into words.
 */
export class LaterLookups {
  /** The artifacts looked up, by the rank of their last lookup, ascending. */
  private readonly pieces: string[] = [];
  private readonly lastRanks: number[] = [];
  /** How many of {@link pieces} are looked up for the last time at or before the current rank. */
  private passed = 0;

  /** `lookups[rank]`: the artifact (as a piece) looked up at that rank, if any. */
  constructor(lookups: readonly (string | undefined)[]) {
    const seen = new Set<string>();
    for (let rank = lookups.length - 1; rank >= 0; rank--) {
      const piece = lookups[rank];
      if (piece === undefined || seen.has(piece)) continue;
      seen.add(piece);
      this.pieces.push(piece);
      this.lastRanks.push(rank);
    }
    this.pieces.reverse();
    this.lastRanks.reverse();
  }

  /**
   * False when no artifact looked up after `rank` can be a piece of `text`; ranks must not decrease from one
   * call to the next.
   */
  mayShow(text: string, rank: number): boolean {
    const total = this.pieces.length;
    while (this.passed < total && (this.lastRanks[this.passed] as number) <= rank) this.passed++;
    const left = total - this.passed;
    if (left === 0) return false;
    if (left > FEW) return true;
    for (let index = this.passed; index < total; index++)
      if (text.includes(this.pieces[index] as string)) return true;
    return false;
  }
}
