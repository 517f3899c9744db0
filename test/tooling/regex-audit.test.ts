import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_PATH,
  type AuditEntry,
  type AuditFile,
  auditProblems,
  readAudit,
} from '../../scripts/regex-audit/audit-file.js';
import { findRegexSites, regexSitesOf } from '../../scripts/regex-audit/extract.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The ReDoS checker takes minutes, so it runs only in `npm run audit:regex`; this keeps its record true of the
// code: a regex added or changed since the last run, or one whose finding nobody has explained, fails here.
describe(`${AUDIT_PATH} matches the regexes of src/`, () => {
  it('every regex in src/ is in the audit, every entry is still in src/, and none awaits review', () => {
    const problems = auditProblems(findRegexSites(ROOT), readAudit(ROOT));
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });
});

describe('regexSitesOf', () => {
  it('reads literals, RegExp calls built from constants, and RegExp calls built from data', () => {
    const code = [
      "const B = '(?<!x)';",
      // biome-ignore-start lint/suspicious/noTemplateCurlyInString: this is source code that holds templates
      'const TAIL = /b+$/;',
      'const a = /a\\/b/gi;',
      "const b = new RegExp(`${B}sk-[0-9]{2,}`, 'g');",
      'const c = new RegExp(String.raw`\\d+${B}` + "z", `m${"s"}`);',
      "const d = RegExp(TAIL.source, 'i');",
      "const e = new RegExp(rule.pattern, 'y' + flags);",
      // biome-ignore-end lint/suspicious/noTemplateCurlyInString: the end of that source code
    ].join('\n');
    const sites = regexSitesOf('src/x.ts', code).map(({ line, kind, source, flags }) => ({
      line,
      kind,
      source,
      flags,
    }));
    expect(sites).toEqual([
      { line: 2, kind: 'literal', source: 'b+$', flags: '' },
      { line: 3, kind: 'literal', source: 'a\\/b', flags: 'gi' },
      { line: 4, kind: 'constructor', source: '(?<!x)sk-[0-9]{2,}', flags: 'g' },
      { line: 5, kind: 'constructor', source: '\\d+(?<!x)z', flags: 'ms' },
      { line: 6, kind: 'constructor', source: 'b+$', flags: 'i' },
      { line: 7, kind: 'dynamic', source: 'rule.pattern', flags: "'y' + flags" },
    ]);
  });

  it('does not resolve a name declared twice or with let', () => {
    const code = "let P = 'a';\nconst Q = 'b';\n{ const Q = 'c'; }\nnew RegExp(P);\nnew RegExp(Q);";
    expect(regexSitesOf('src/x.ts', code).map((site) => site.kind)).toEqual(['dynamic', 'dynamic']);
  });
});

describe('auditProblems', () => {
  const site = { file: 'src/a.ts', line: 7, kind: 'literal', source: 'a+$', flags: 'g' } as const;
  const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
    file: 'src/a.ts',
    kind: 'literal',
    source: 'a+$',
    flags: 'g',
    verdict: 'safe',
    ...fields,
  });
  const audit = (...entries: AuditEntry[]): AuditFile => ({ checker: 'test', entries });

  it('accepts safe entries and bounded or dynamic ones with a reason', () => {
    expect(auditProblems([site], audit(entry({})))).toEqual([]);
    expect(
      auditProblems([site], audit(entry({ verdict: 'bounded', reason: 'a token of 200 chars' }))),
    ).toEqual([]);
  });

  it('names a regex missing from the audit by file and line, whatever the line number is', () => {
    expect(auditProblems([{ ...site, flags: 'gi' }], audit(entry({})))).toEqual([
      'new or changed regex at src/a.ts:7 (/a+$/gi): run `npm run audit:regex`',
      `stale entry in ${AUDIT_PATH}: src/a.ts no longer has /a+$/g: run \`npm run audit:regex\``,
    ]);
    expect(auditProblems([{ ...site, line: 99 }], audit(entry({})))).toEqual([]);
  });

  it('rejects entries awaiting review, and bounded or dynamic ones without a reason', () => {
    for (const fields of [
      { verdict: 'review', finding: 'vulnerable: 2nd degree polynomial' },
      { verdict: 'bounded' },
      { verdict: 'bounded', reason: '  ' },
      { verdict: 'dynamic' },
      { verdict: 'vulnerable', reason: 'x' },
    ] as const) {
      const problems = auditProblems([site], audit(entry(fields as Partial<AuditEntry>)));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('src/a.ts:7: /a+$/g needs review');
    }
  });
});
