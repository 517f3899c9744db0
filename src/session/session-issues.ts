import type { SessionIndex } from './session-index.js';
import type { SessionIssue } from './session-types.js';
import type { ChainCut } from './walk-chain.js';

const SHOWN = 5;

/** Issues about the lines themselves: unreadable lines, repeated uuids, record types the format does not know. */
export function lineIssues(index: SessionIndex): SessionIssue[] {
  const issues: SessionIssue[] = [];
  const lastIndex = index.skeletons.length - 1;
  for (const skeleton of index.skeletons) {
    if (skeleton.readable) continue;
    const truncated = skeleton.index === lastIndex;
    issues.push({
      code: truncated ? 'truncated-line' : 'invalid-json',
      severity: truncated ? 'warning' : 'error',
      message: truncated
        ? `line ${skeleton.line} is cut short (the writer stopped mid-line); it was skipped`
        : `line ${skeleton.line} is not valid JSON; it was skipped`,
      line: skeleton.line,
    });
  }
  if (index.duplicates.size > 0) {
    const sample = [...index.duplicates].slice(0, SHOWN);
    const described = sample.map(([uuid, lines]) => `${uuid.slice(0, 8)} on lines ${lines.join(', ')}`);
    const more = index.duplicates.size > SHOWN ? '; …' : '';
    const firstRepeat = sample[0]?.[1][1];
    issues.push({
      code: 'duplicate-uuid',
      severity: 'warning',
      message: `${index.duplicates.size} uuid(s) are written more than once (${described.join('; ')}${more}); the last line of each wins`,
      ...(firstRepeat === undefined ? {} : { line: firstRepeat }),
    });
  }
  const unknown = new Map<string, number>();
  for (const skeleton of index.skeletons) {
    const type = skeleton.type;
    if (skeleton.readable && type !== undefined && !index.dialect.knownTypes.has(type))
      unknown.set(type, (unknown.get(type) ?? 0) + 1);
  }
  if (unknown.size > 0) {
    const listed = [...unknown].map(([type, count]) => `${type} ×${count}`).join(', ');
    issues.push({
      code: 'unknown-record',
      severity: 'info',
      message: `records of types condense does not know were ignored: ${listed}`,
    });
  }
  return issues;
}

/** Issues for the places the chain walk could not follow a link. */
export function cutIssues(cuts: readonly ChainCut[]): SessionIssue[] {
  return cuts.map(cutIssue);
}

function cutIssue(cut: ChainCut): SessionIssue {
  const where = { line: cut.line, ...(cut.uuid === undefined ? {} : { uuid: cut.uuid }) };
  switch (cut.kind) {
    case 'missing-parent':
      return {
        code: 'missing-parent',
        severity: 'warning',
        message: `the chain is cut at line ${cut.line}: its parent ${cut.target ?? '?'} is not in the file; the history before it is lost`,
        ...where,
      };
    case 'cycle':
      return {
        code: 'cycle',
        severity: 'error',
        message: `the parent links loop back at line ${cut.line} (${cut.target ?? '?'}); the chain stops there`,
        ...where,
      };
    case 'boundary-link-missing':
      return {
        code: 'boundary-link-missing',
        severity: 'warning',
        message:
          cut.resumedLine === undefined
            ? `the compaction boundary on line ${cut.line} names ${cut.target ?? '?'} as the last record before it, which is not in the file; the history before it is lost`
            : `the compaction boundary on line ${cut.line} names ${cut.target ?? '?'} as the last record before it, which is not in the file; the history continues from the newest message before the boundary (line ${cut.resumedLine})`,
        ...where,
      };
    case 'invalid-boundary':
      return {
        code: 'invalid-boundary',
        severity: 'warning',
        message: `the compaction boundary on line ${cut.line} names preserved record ${cut.target ?? '?'}, which cannot be followed; it is left out of the context`,
        ...where,
      };
  }
}
