/**
 * The known key a misspelt one probably meant: the only one it abbreviates (four characters or more), else the
 * nearest within three edits. Case and `-`/`_` are ignored, so `Context-Length` finds `context_length`.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const normalized = normalize(key);
  const extended = known.filter(
    (candidate) => normalized.length >= 4 && normalize(candidate).startsWith(normalized),
  );
  if (extended.length === 1) return extended[0];
  let best: string | undefined;
  let bestDistance = 4;
  for (const candidate of known) {
    const distance = editDistance(normalized, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(key: string): string {
  return key.toLowerCase().replaceAll('-', '_');
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[column] as number) + 1,
          (current[column - 1] as number) + 1,
          (previous[column - 1] as number) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[right.length] as number;
}
