/** Issue 12's measure of the integrations: a tool loop of 200 steps with 3k-token outputs in a 16K window. */
export const LONG_LOOP = { steps: 200, window: 16_000 } as const;

/**
 * What reading `path` returns in the long loop: a generated lookup table of about 3,000 tokens by condense's
 * rough counter, distinct per path. Numbers cost about 1.4 characters a token, so 200 of them stay cheap to
 * re-send, parse and count on every step.
 */
export function generatedTable(path: string): string {
  const seed = [...path].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 65_521, 0);
  const rows = Array.from(
    { length: 55 },
    (_, row) =>
      `  ${Array.from({ length: 16 }, (_, col) => (row * 31 + col * 7 + seed + Math.floor(seed / 256) * row) % 256).join(', ')},`,
  );
  return [`// ${path}: generated lookup table`, 'export const TABLE = [', ...rows, '];'].join('\n');
}
