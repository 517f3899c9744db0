import type { DecodeIssue } from '../../codecs/codec.js';
import type { DocumentLayout } from '../../codecs/document.js';
import type { InspectReport } from '../../inspect/inspect-transcript.js';
import type { FormatName } from '../../model/format.js';
import { ROLES } from '../../model/role.js';
import { integer, renderColumns, share } from './table.js';

/** What the inspect view shows besides the report itself. */
export interface InspectHeader {
  readonly file: string;
  readonly format: FormatName;
  readonly layout: DocumentLayout;
  readonly bytes: number;
  readonly issues: readonly DecodeIssue[];
}

const MAX_LISTED = 20;

/** The human-readable view of `condense inspect`. */
export function renderInspect(header: InspectHeader, report: InspectReport): string {
  const out: string[] = [];
  out.push(`${header.file}`);
  out.push(
    `  format ${header.format} (${header.layout}), ${integer(header.bytes)} bytes, ${integer(report.transcripts)} transcript${report.transcripts === 1 ? '' : 's'}`,
  );
  out.push('', `messages: ${integer(report.messages.total)}`);
  out.push(renderColumns(ROLES.map((role) => [role, integer(report.messages.byRole[role])])));
  out.push(
    '',
    `tool calls: ${integer(report.toolCalls.total)}, results: ${integer(report.toolResults.total)} (${integer(report.toolResults.errors)} errors), images: ${integer(report.images)}, reasoning parts: ${integer(report.reasoningParts)}`,
  );
  const calls = Object.entries(report.toolCalls.byName).slice(0, MAX_LISTED);
  if (calls.length > 0) out.push(renderColumns(calls.map(([name, count]) => [name, integer(count)])));
  for (const tokens of report.tokens) {
    out.push('', `tokens (${tokens.counter}${tokens.exact ? '' : ', estimate'}): ${integer(tokens.total)}`);
    out.push(
      renderColumns([
        ['by role', 'tokens', 'share'],
        ...ROLES.map((role) => [
          role,
          integer(tokens.byRole[role]),
          share(tokens.byRole[role], tokens.total),
        ]),
      ]),
    );
    const tools = Object.entries(tokens.byTool).slice(0, MAX_LISTED);
    if (tools.length > 0) {
      out.push(
        renderColumns([
          ['by tool', 'tokens', 'share'],
          ...tools.map(([name, count]) => [name, integer(count), share(count, tokens.total)]),
        ]),
      );
    }
  }
  if (report.heaviest.length > 0) {
    out.push('', `heaviest messages (${report.tokens[0]?.counter ?? 'tokens'}):`);
    out.push(
      renderColumns(
        report.heaviest.map((heavy) => [
          report.transcripts > 1 ? `#${heavy.transcript}:${heavy.index}` : `#${heavy.index}`,
          heavy.role,
          integer(heavy.tokens),
          heavy.tools.join(',') || '-',
          heavy.preview,
        ]),
      ),
    );
  }
  out.push('', problems(header.issues, report));
  return `${out.join('\n')}\n`;
}

function problems(issues: readonly DecodeIssue[], report: InspectReport): string {
  const lines: string[] = [];
  for (const issue of issues.slice(0, MAX_LISTED)) {
    lines.push(
      `  ${issue.severity} ${issue.code}${issue.line === undefined ? '' : ` (line ${issue.line})`}: ${issue.message}`,
    );
  }
  if (issues.length > MAX_LISTED) lines.push(`  … and ${issues.length - MAX_LISTED} more decode issues`);
  for (const violation of report.violations.slice(0, MAX_LISTED)) {
    const where = report.transcripts > 1 ? `transcript ${violation.transcript}, ` : '';
    lines.push(`  ${violation.code} (${where}message ${violation.index}): ${violation.message}`);
  }
  if (report.violations.length > MAX_LISTED)
    lines.push(`  … and ${report.violations.length - MAX_LISTED} more problems`);
  return lines.length === 0
    ? 'problems: none'
    : `problems: ${issues.length + report.violations.length}\n${lines.join('\n')}`;
}
