import type { WireProblem } from '../../codecs/provider-rules/index.js';

/**
 * Lines for standard error about outputs that break the provider's rules: how many transcripts, the problems by
 * code, and the first few with where they are. Empty when every output is valid.
 */
export function describeProblems(
  problems: readonly { readonly index: number; readonly problems: readonly WireProblem[] }[],
  format: string,
  total: number,
): string[] {
  if (problems.length === 0) return [];
  const byCode = new Map<string, number>();
  for (const entry of problems)
    for (const problem of entry.problems) byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
  const codes = [...byCode].map(([code, count]) => `${count} × ${code}`).join(', ');
  const lines = [`${problems.length} of ${total} ${format} output(s) break the provider's rules (${codes}):`];
  for (const entry of problems.slice(0, 3))
    for (const problem of entry.problems.slice(0, 3))
      lines.push(`  #${entry.index} ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`);
  return lines;
}
