// `npm run audit:regex`: runs the ReDoS checker `recheck` on every regex of `src/` and rewrites
// docs/regex-audit.json. A regex the checker finds safe is recorded as such; one it flags (or cannot decide in
// time) keeps the `bounded` reason a person wrote for it, or is written as `review` and listed, and the script
// exits 1. Dynamic `new RegExp(…)` calls are listed the same way until someone writes down where their pattern
// comes from. Takes about two minutes; not part of `npm test` (test/tooling/regex-audit.test.ts checks the file
// against the code without the checker).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, type Diagnostics } from 'recheck';
import {
  AUDIT_PATH,
  type AuditEntry,
  type AuditFile,
  auditKey,
  isSettled,
  readAudit,
} from './regex-audit/audit-file.js';
import { findRegexSites, type RegexSite } from './regex-audit/extract.js';

/**
 * Per regex. Most take well under a second, but the automaton analysis of the longest alternations takes 2-9 s
 * and passed 10 s on a loaded machine; a regex the checker cannot settle in this time is `unknown`, which needs
 * a person as much as `vulnerable` does.
 */
const TIMEOUT_MS = 60_000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const recheckVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/recheck/package.json'), 'utf8')) as { version: string }
).version;

const out = (line: string) => process.stdout.write(`${line}\n`);

const sites = new Map<string, RegexSite>();
for (const site of findRegexSites(ROOT)) if (!sites.has(auditKey(site))) sites.set(auditKey(site), site);
const previous = new Map(
  (existsSync(join(ROOT, AUDIT_PATH)) ? readAudit(ROOT).entries : []).map((entry) => [
    auditKey(entry),
    entry,
  ]),
);

const started = Date.now();
const entries: AuditEntry[] = [];
for (const site of sites.values()) {
  const entry = await audit(site, previous.get(auditKey(site)));
  entries.push(entry);
  if (entries.length % 50 === 0) out(`${entries.length} / ${sites.size} checked`);
}

const file: AuditFile = {
  checker: `recheck ${recheckVersion}, timeout ${TIMEOUT_MS / 1000} s per regex, flags g and y ignored (written by npm run audit:regex)`,
  entries,
};
const target = join(ROOT, AUDIT_PATH);
writeFileSync(`${target}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
renameSync(`${target}.tmp`, target);

const count = (verdict: AuditEntry['verdict']) => entries.filter((entry) => entry.verdict === verdict).length;
out(
  `${entries.length} regexes (distinct by file, pattern and flags) in ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s: ${count('safe')} safe, ${count('bounded')} bounded, ` +
    `${count('dynamic')} dynamic, ${count('review')} to review; written to ${AUDIT_PATH}`,
);
for (const key of previous.keys())
  if (!sites.has(key))
    out(`dropped (no longer in src/): ${previous.get(key)?.file} /${previous.get(key)?.source}/`);

const unsettled = entries.filter((entry) => !isSettled(entry));
for (const entry of unsettled) {
  const site = sites.get(auditKey(entry));
  out(
    `NEEDS REVIEW ${site?.file}:${site?.line} ${entry.kind === 'dynamic' ? `new RegExp(${entry.source})` : `/${entry.source}/${entry.flags}`}: ${entry.finding}`,
  );
}
if (unsettled.length > 0) {
  out(
    `\n${unsettled.length} regex(es) need a person: make each linear (see docs/architecture.md §4), or if its input ` +
      `is always short, set its "verdict" to "bounded" with a "reason" saying why in ${AUDIT_PATH} and run this again.`,
  );
  process.exitCode = 1;
}

async function audit(site: RegexSite, before: AuditEntry | undefined): Promise<AuditEntry> {
  const { file, kind, source, flags } = site;
  if (kind === 'dynamic') {
    const reason = before?.verdict === 'dynamic' ? before.reason : undefined;
    return {
      file,
      kind,
      source,
      flags,
      verdict: reason === undefined ? 'review' : 'dynamic',
      finding: 'pattern built at run time from data',
      ...(reason === undefined ? {} : { reason }),
    };
  }
  const finding = describe(await check(source, flags.replace(/[gy]/g, ''), { timeout: TIMEOUT_MS }));
  if (finding === undefined) {
    if (before?.verdict === 'bounded') out(`now safe, its reason dropped: ${file} /${source}/${flags}`);
    return { file, kind, source, flags, verdict: 'safe' };
  }
  const reason = before?.verdict === 'bounded' ? before.reason : undefined;
  // The degree a fuzzing run reports depends on how far it got in its time, so a finding of the same kind keeps
  // its earlier wording rather than rewrite the file on every run.
  const sameKind = before?.finding?.split(':')[0] === finding.split(':')[0];
  return {
    file,
    kind,
    source,
    flags,
    verdict: reason === undefined ? 'review' : 'bounded',
    finding: sameKind && before?.finding !== undefined ? before.finding : finding,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** What the checker found, or undefined when it found the regex safe. */
function describe(result: Diagnostics): string | undefined {
  switch (result.status) {
    case 'safe':
      return undefined;
    case 'vulnerable':
      return `vulnerable: ${result.complexity.summary}`;
    case 'unknown':
      return `unknown: ${result.error.kind}${'message' in result.error ? ` (${result.error.message})` : ''}`;
  }
}
