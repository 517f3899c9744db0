// The committed audit of `src/`'s regexes (docs/regex-audit.json): what the ReDoS checker said of each, and for
// those it flags, why their input cannot be long. `npm run audit:regex` writes it; a test checks it against the
// code without the checker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RegexKind, RegexSite } from './extract.js';

/** Where the audit lives, from the repository root. */
export const AUDIT_PATH = 'docs/regex-audit.json';

/**
 * - `safe`: the checker found no super-linear backtracking.
 * - `bounded`: the checker flags it (or timed out), and `reason` says why its input is never long.
 * - `dynamic`: the pattern comes from data, and `reason` says where it comes from and why that is acceptable.
 * - `review`: written by the script for a flagged or dynamic regex that has no reason yet; a person replaces it
 *   with `bounded` or `dynamic` and a reason, or rewrites the regex.
 */
export type Verdict = 'safe' | 'bounded' | 'dynamic' | 'review';

export interface AuditEntry {
  readonly file: string;
  readonly kind: RegexKind;
  readonly source: string;
  readonly flags: string;
  readonly verdict: Verdict;
  /** What the checker said of a regex that is not safe: its complexity, or why it could not decide. */
  readonly finding?: string;
  readonly reason?: string;
}

export interface AuditFile {
  /** What wrote it, and how. */
  readonly checker: string;
  readonly entries: readonly AuditEntry[];
}

/** Line numbers move with every edit, so an entry is known by its file, kind, pattern and flags. */
export function auditKey(regex: Pick<RegexSite, 'file' | 'kind' | 'source' | 'flags'>): string {
  return JSON.stringify([regex.file, regex.kind, regex.source, regex.flags]);
}

export function readAudit(root: string): AuditFile {
  const parsed: unknown = JSON.parse(readFileSync(join(root, AUDIT_PATH), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as AuditFile).entries))
    throw new Error(`${AUDIT_PATH}: expected an object with an "entries" array`);
  return parsed as AuditFile;
}

/** Whether an entry stands on its own: safe by the checker, or not safe with a person's reason. */
export function isSettled(entry: AuditEntry): boolean {
  if (entry.verdict === 'safe') return true;
  return (
    (entry.verdict === 'bounded' || entry.verdict === 'dynamic') &&
    typeof entry.reason === 'string' &&
    entry.reason.trim().length > 0
  );
}

/**
 * Everything that makes the audit untrue of the code: a regex with no entry (new or changed), an entry with no
 * regex (stale), an entry with a verdict that is not settled. Empty when the audit holds.
 */
export function auditProblems(sites: readonly RegexSite[], audit: AuditFile): string[] {
  const problems: string[] = [];
  const entries = new Map(audit.entries.map((entry) => [auditKey(entry), entry]));
  const present = new Map<string, RegexSite>();
  for (const site of sites) {
    const key = auditKey(site);
    if (!present.has(key)) present.set(key, site);
    if (!entries.has(key))
      problems.push(
        `new or changed regex at ${site.file}:${site.line} (${describe(site)}): run \`npm run audit:regex\``,
      );
  }
  for (const [key, entry] of entries) {
    const site = present.get(key);
    if (site === undefined)
      problems.push(
        `stale entry in ${AUDIT_PATH}: ${entry.file} no longer has ${describe(entry)}: run \`npm run audit:regex\``,
      );
    else if (!isSettled(entry))
      problems.push(
        `${site.file}:${site.line}: ${describe(entry)} needs review (verdict "${entry.verdict}"` +
          `${entry.finding === undefined ? '' : `, ${entry.finding}`}, ${entry.reason?.trim() ? 'with' : 'no'} reason): ` +
          `make it linear, or give it verdict "bounded" (or "dynamic") and a reason in ${AUDIT_PATH}`,
      );
  }
  return problems;
}

function describe(regex: Pick<RegexSite, 'kind' | 'source' | 'flags'>): string {
  return regex.kind === 'dynamic'
    ? `new RegExp(${regex.source}, ${regex.flags || "''"})`
    : `/${regex.source}/${regex.flags}${regex.kind === 'constructor' ? ' (built by new RegExp)' : ''}`;
}
