import type { Artifacts } from '../../inspect/artifacts.js';
import type { SectionKey } from '../prompts/checkpoint-template.js';
import type { SessionFacts } from './collect-facts.js';
import { type ActionFact, actionLine, type FileEffect } from './describe-action.js';
import type { FailureFix } from './failures.js';
import {
  bump,
  CHARS_PER_TOKEN,
  carriedLines,
  demoteBeyond,
  type Item,
  matchesFocus,
  PRIORITY,
  type Priority,
} from './items.js';
import { lineNumber, type PreviousCheckpoint, unbullet } from './previous-checkpoint.js';
import { referenceItems } from './reference-items.js';
import { clip } from './sentences.js';

/** What the record sections are built from. */
export interface RecordInput {
  readonly facts: SessionFacts;
  readonly artifacts: Artifacts;
  readonly previous: PreviousCheckpoint | undefined;
  /** Lower-cased terms of the focus topic: matching items weigh more. */
  readonly focusTerms: readonly string[];
  /** The checkpoint's target, in tokens: the share of it a carried-forward summary keeps first. */
  readonly targetTokens: number;
  /** The token count the fitter uses: shares of the target are measured with it. */
  readonly count: (text: string) => number;
}

const MAX_IDENTIFIERS = 24;
const MAX_LINES_PER_FILE = 16;
// Claude Code's summary: an <analysis> block, then the structured <summary> (its tags, or "Analysis:"/"Summary:").
const SUMMARY_START = /^\s*(?:<summary>|Summary:)\s*$/;
const SUMMARY_TAGS = /^\s*(?:<\/?analysis>|<\/summary>)\s*$/;
/** Share of the target a carried-forward summary keeps before anything but the requests. */
const EARLIER_SUMMARY_SHARE = 0.35;
/** Shares of the target some sections take at their own priority; the rest of them ranks with details. */
const CONSTRAINTS_SHARE = 0.1;
const FILES_SHARE = 0.2;
const FAILURES_SHARE = 0.2;

/** Every section that records what happened: files, failures, decisions, state, errors, log, references. */
export function recordItems(input: RecordInput): Item[] {
  const target = input.targetTokens;
  return [
    ...demoteBeyond(fileItems(input), target * FILES_SHARE * CHARS_PER_TOKEN, input.count),
    ...demoteBeyond(failureItems(input), target * FAILURES_SHARE * CHARS_PER_TOKEN, input.count),
    ...demoteBeyond(
      proseItems(input, 'constraints', input.facts.constraints, PRIORITY.core),
      target * CONSTRAINTS_SHARE * CHARS_PER_TOKEN,
      input.count,
    ),
    ...proseItems(input, 'keyDecisions', input.facts.decisions, PRIORITY.detail),
    ...activeStateItems(input),
    ...earlierSummaryItems(input),
    ...errorLineItems(input),
    ...actionLogItems(input),
    ...referenceItems(input, previousLines(input, 'references')),
  ];
}

function previousLines(input: RecordInput, key: SectionKey): string[] {
  return [...(input.previous?.sections.get(key) ?? [])];
}

function proseItems(
  input: RecordInput,
  section: SectionKey,
  fresh: readonly string[],
  priority: Priority,
): Item[] {
  const lines = [...previousLines(input, section).map(unbullet), ...fresh];
  const seen = new Set<string>();
  const items: Item[] = [];
  lines.forEach((line, index) => {
    const key = line.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    items.push({
      section,
      text: clip(line, 300),
      priority: bump(priority, matchesFocus(line, input.focusTerms)),
      weight: lines.length - index,
      order: index,
    });
  });
  return items;
}

interface FileRecord {
  effects: FileEffect[];
  defined: string[];
  added: string[];
  removed: string[];
  lines: string[];
}

function fileRecords(actions: readonly ActionFact[]): Map<string, FileRecord> {
  const files = new Map<string, FileRecord>();
  for (const action of actions) {
    if (action.effect === undefined) continue;
    for (const path of action.paths) {
      const record = files.get(path) ?? { effects: [], defined: [], added: [], removed: [], lines: [] };
      if (record.effects[record.effects.length - 1] !== action.effect) record.effects.push(action.effect);
      const changes = action.changes;
      if (changes !== undefined) {
        for (const name of changes.defined) if (!record.defined.includes(name)) record.defined.push(name);
        // A whole-file write adds every name it holds; only an edit's additions say what changed.
        if (action.verb === 'EDIT') {
          for (const name of changes.added) if (!record.added.includes(name)) record.added.push(name);
          for (const line of changes.lines) if (!record.lines.includes(line)) record.lines.push(line);
        }
        for (const name of changes.removed) if (!record.removed.includes(name)) record.removed.push(name);
      }
      files.set(path, record);
    }
  }
  return files;
}

function effectText(effects: readonly FileEffect[]): string {
  return effects.length === 0 ? 'changed' : effects.join(', then ');
}

/**
 * The path a files-changed line starts with: what precedes the first white space before `(` or `—`. `(?<!\s)`
 * tries each run of white space once, from its start: `/\s+[(—]/` alone was quadratic in a long run.
 */
export function pathOfFileLine(line: string): string {
  return line.split(/(?<!\s)\s+[(—]/)[0] ?? '';
}

/** One line per file changed (path and what was done), and one detail line with the identifiers touched. */
function fileItems(input: RecordInput): Item[] {
  const items: Item[] = [];
  const records = fileRecords(input.facts.actions);
  const earlier = previousLines(input, 'filesChanged');
  let order = 0;
  for (const line of earlier) {
    const text = line.trim();
    const sub = /^\s+[-*]/.test(line);
    const path = pathOfFileLine(unbullet(text));
    if (!sub && records.has(path)) continue;
    items.push({
      section: 'filesChanged',
      text: sub ? `  ${text}` : unbullet(text),
      priority: sub ? PRIORITY.detail : PRIORITY.core,
      weight: 500,
      order: order++,
      ...(sub ? { raw: true } : {}),
    });
  }
  let index = 0;
  for (const [path, record] of records) {
    const focused = matchesFocus(path, input.focusTerms);
    items.push({
      section: 'filesChanged',
      text: `${path} (${effectText(record.effects)})`,
      priority: bump(PRIORITY.core, focused),
      weight: records.size - index,
      order: order++,
    });
    const parts: string[] = [];
    if (record.defined.length > 0)
      parts.push(`defines ${record.defined.slice(0, MAX_IDENTIFIERS).join(', ')}`);
    if (record.added.length > 0) parts.push(`adds ${record.added.slice(0, MAX_IDENTIFIERS).join(', ')}`);
    if (record.removed.length > 0)
      parts.push(`removes ${record.removed.slice(0, MAX_IDENTIFIERS).join(', ')}`);
    if (parts.length > 0) {
      items.push({
        section: 'filesChanged',
        text: `  - ${parts.join('; ')}`,
        alternatives:
          record.defined.length > 0 ? [`  - defines ${record.defined.slice(0, 8).join(', ')}`] : [],
        priority: bump(PRIORITY.detail, focused),
        weight: records.size - index,
        order: order++,
        raw: true,
      });
    }
    record.lines.slice(0, MAX_LINES_PER_FILE).forEach((line, at) => {
      items.push({
        section: 'filesChanged',
        text: `    + \`${line.replaceAll('`', "'")}\``,
        priority: PRIORITY.log,
        weight: at,
        order: order++,
        raw: true,
      });
    });
    index++;
  }
  return items;
}

function failureLine(failure: FailureFix): string {
  const { failed, fixedBy } = failure;
  const error = failed.errorLines.find((line) => !/^exit code \d+$/i.test(line)) ?? failed.shortOutcome;
  const head = `${failed.verb} ${failed.target} failed: ${clip(error, 300)}`;
  if (fixedBy === undefined) return `${head} — still failing when these turns ended [tool: ${failed.tool}]`;
  const edits = failure.editedPaths.length > 0 ? `edited ${failure.editedPaths.join(', ')}, then ` : '';
  return `${head} → fixed: ${edits}${fixedBy.verb} ${fixedBy.target} — ${fixedBy.shortOutcome}`;
}

function failureItems(input: RecordInput): Item[] {
  const items: Item[] = [];
  const earlier = previousLines(input, 'failures').map(unbullet);
  const successes = input.facts.actions.filter((action) => !action.failed);
  let order = 0;
  for (const line of earlier) {
    const open = /still failing|^blocked/i.test(line);
    const fix = open
      ? successes.find(
          (action) => line.includes(action.target) || action.paths.some((path) => line.includes(path)),
        )
      : undefined;
    const text =
      fix === undefined
        ? line
        : `${line.replace(/ — still failing[^[]*/, '')} → fixed later: ${fix.verb} ${fix.target} — ${fix.shortOutcome}`;
    items.push({
      section: 'failures',
      text: clip(text, 600),
      priority: open && fix === undefined ? PRIORITY.state : PRIORITY.core,
      weight: 500,
      order: order++,
    });
  }
  const seen = new Set<string>();
  const failures = input.facts.failures;
  failures.forEach((failure, index) => {
    const text = failureLine(failure);
    if (seen.has(text)) return;
    seen.add(text);
    items.push({
      section: 'failures',
      text,
      priority: failure.fixedBy === undefined ? PRIORITY.state : PRIORITY.core,
      weight: failures.length - index,
      order: order++,
    });
    if (failure.diagnosis !== undefined) {
      items.push({
        section: 'failures',
        text: `  - the agent's reading: ${clip(failure.diagnosis, 240)}`,
        priority: PRIORITY.detail,
        weight: failures.length - index,
        order: order++,
        raw: true,
      });
    }
  });
  return items;
}

function activeStateItems(input: RecordInput): Item[] {
  const fresh = input.facts.stateLines;
  const lines = fresh.length > 0 ? fresh : previousLines(input, 'activeState').map(unbullet);
  return lines.map((text, index) => ({
    section: 'activeState' as const,
    text: clip(text, 400),
    priority: PRIORITY.detail,
    weight: index,
    order: index,
  }));
}

/**
 * A summary carried forward: its first lines (up to a share of the target, see {@link demoteBeyond}) rank with
 * the task state. In Claude Code's summaries the structured part (after `Summary:`) comes first and ranks before
 * the chronological analysis that precedes it.
 */
function earlierSummaryItems(input: RecordInput): readonly Item[] {
  const carried = [
    ...previousLines(input, 'earlierSummary'),
    ...(input.previous?.foreign === undefined ? [] : input.previous.foreign.split('\n')),
  ].filter((line) => line.trim() !== '' && !SUMMARY_TAGS.test(line));
  const split = carried.findIndex((line) => SUMMARY_START.test(line));
  const lines =
    split <= 0
      ? carried
      : [...carried.slice(split).filter((line) => line.trim() !== '<summary>'), ...carried.slice(0, split)];
  const items = lines.map((line, index) => {
    const analysis = split > 0 && index >= lines.length - split;
    return {
      section: 'earlierSummary' as const,
      text: line.trimEnd(),
      priority: analysis ? PRIORITY.detail : PRIORITY.state,
      weight: index,
      order: index,
      raw: true,
    };
  });
  return demoteBeyond(items, input.targetTokens * EARLIER_SUMMARY_SHARE * CHARS_PER_TOKEN, input.count);
}

function errorLineItems(input: RecordInput): Item[] {
  const earlier = previousLines(input, 'errorLines').map(unbullet);
  const lines = [...new Set([...earlier, ...input.artifacts.errorLines])];
  return lines.map((text, index) => ({
    section: 'errorLines' as const,
    text,
    priority: PRIORITY.artifact,
    weight: lines.length - index,
    order: index,
    artifact: true,
  }));
}

function actionLogItems(input: RecordInput): Item[] {
  const earlier = previousLines(input, 'actionLog');
  const items = carriedLines('actionLog', earlier, PRIORITY.log, 100_000);
  let last = 0;
  for (const line of earlier) last = lineNumber(line) ?? last;
  const actions = input.facts.actions;
  actions.forEach((action, index) => {
    const number = last + 1 + index;
    const focused = matchesFocus(`${action.target} ${action.tool}`, input.focusTerms);
    items.push({
      section: 'actionLog',
      text: `${number}. ${actionLine(action, false)}`,
      alternatives: [`${number}. ${actionLine(action, true)}`],
      priority: bump(PRIORITY.log, focused),
      weight: actions.length - index,
      order: earlier.length + index,
      raw: true,
      action: { number, tool: action.tool },
    });
  });
  return items;
}
