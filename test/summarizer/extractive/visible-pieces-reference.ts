/**
 * The regular-expression version of `VisiblePieces` that fitting used before issue 15, kept as the oracle the
 * scanner must agree with exactly: a piece found by one and not the other changes which artifacts a checkpoint
 * lists.
 */
export function referenceVisiblePieces(text: string, wanted: ReadonlySet<string>, into: Set<string>): void {
  const keep = (piece: string) => {
    if (wanted.has(piece)) into.add(piece);
  };
  for (const word of text.split(/[\s`'"()[\],;]+/)) {
    if (word === '') continue;
    keep(word);
    keep(word.replace(/[.:!?]+$/, ''));
  }
  for (const match of text.matchAll(/`([^`\n]+)`/g)) keep(match[1] as string);
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    keep(trimmed);
    keep(trimmed.replace(/^(?:[-*]|\d+\.)\s+/, ''));
  }
}
