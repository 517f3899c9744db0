import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchableText } from '../../src/inspect/artifacts.js';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import type { Transcript } from '../../src/model/transcript.js';
import { loadSession } from '../../src/session/load-session.js';
import type { LoadedSession } from '../../src/session/session-types.js';
import { parseSections } from '../../src/summarizer/prompts/checkpoint-template.js';
import { checkpointOf } from '../../src/transforms/checkpoint-text.js';
import { classifyUserMessage } from '../../src/transforms/user-turns.js';
import { occurrence, type ReferenceItem, type ReferenceKind, referenceItems } from './reference-items.js';

/** One real compaction of a Claude Code session: what the agent had before it, and Claude Code's summary. */
export interface RealCompaction {
  readonly file: string;
  readonly boundaryLine: number;
  readonly preTokens: number;
  /** The conversation as the agent had it right before the compaction. */
  readonly input: Transcript;
  /** The summary Claude Code's own model wrote for that stretch. */
  readonly summary: string;
}

const CLAUDE_PREFIX = 'This session is being continued from a previous conversation';

/**
 * Every compaction of every main Claude Code session file in `dir` whose boundary has a known `preTokens` and
 * a compact summary (the `isCompactSummary` record after the boundary, else the last answer of the
 * `agent-acompact-*` file beside the session).
 */
export function realCompactions(dir: string): RealCompaction[] {
  const out: RealCompaction[] = [];
  const names = readdirSync(dir).sort();
  for (const name of names) {
    if (!name.endsWith('.jsonl') || name.includes('__subagents__')) continue;
    const bytes = readFileSync(join(dir, name));
    if (!bytes.includes('compact_boundary')) continue;
    const whole = loadSession(bytes, { fileName: name });
    let start = 0;
    for (const boundary of whole.boundaries) {
      const end = boundary.messageIndex;
      const summary = summaryAfter(whole, end) ?? acompactSummary(dir, names, name, boundary.uuid);
      // What the agent had right before this compaction: from the previous checkpoint (or the start) on.
      const input: Transcript = {
        ...whole.transcript,
        messages: whole.transcript.messages.slice(start, end),
      };
      start = end;
      if (summary === undefined || boundary.preTokens === undefined || input.messages.length === 0) continue;
      out.push({ file: name, boundaryLine: boundary.line, preTokens: boundary.preTokens, input, summary });
    }
  }
  return out;
}

function summaryAfter(session: LoadedSession, index: number): string | undefined {
  const message = session.transcript.messages[index];
  if (message === undefined) return undefined;
  const text = messageText(message);
  return text.trimStart().startsWith(CLAUDE_PREFIX) ? text : undefined;
}

function acompactSummary(
  dir: string,
  names: readonly string[],
  session: string,
  _boundary: string,
): string | undefined {
  const stem = session.replace(/\.jsonl$/, '');
  const file = names.find((name) => name.startsWith(`${stem}__subagents__agent-acompact`));
  if (file === undefined) return undefined;
  const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n');
  for (let at = lines.length - 1; at >= 0; at--) {
    const record = JSON.parse(lines[at] as string) as { type?: string; message?: { content?: unknown } };
    if (record.type !== 'assistant' || !Array.isArray(record.message?.content)) continue;
    const text = (record.message.content as { type?: string; text?: string }[])
      .filter((block) => block.type === 'text')
      .map((block) => block.text ?? '')
      .join('\n');
    if (text.trim() !== '') return text;
  }
  return undefined;
}

/** How condense's compaction of the same stretch compares with Claude Code's summary. */
export interface CheckpointQuality {
  readonly file: string;
  readonly contextLength: number;
  readonly tokensAfter: number;
  /** Reference items that occur in the input. */
  readonly items: number;
  readonly inCheckpoint: number;
  readonly inKept: number;
  readonly byKind: Readonly<Record<ReferenceKind, { items: number; inCheckpoint: number; inKept: number }>>;
  readonly missing: readonly string[];
  /** The checkpoint's original and current requests are the person's own words (undefined: none to check). */
  readonly originalRequestRight: boolean | undefined;
  readonly currentRequestRight: boolean;
  readonly checkpointTokens: number;
}

/** Measures one compaction's output against the reference summary. */
export function checkpointQuality(
  compaction: RealCompaction,
  output: Transcript,
  contextLength: number,
  count: (text: string) => number,
  tokensAfter: number,
): CheckpointQuality {
  const inputText = searchableText(compaction.input.messages);
  const checkpoint = checkpointTexts(output.messages).join('\n\n');
  const keptText = searchableText(output.messages);
  const byKind = {} as Record<ReferenceKind, { items: number; inCheckpoint: number; inKept: number }>;
  let items = 0;
  let inCheckpoint = 0;
  let inKept = 0;
  const missing: string[] = [];
  for (const item of referenceItems(compaction.summary)) {
    const spelling = occurrence(item, inputText);
    if (spelling === undefined) continue;
    byKind[item.kind] ??= { items: 0, inCheckpoint: 0, inKept: 0 };
    const bucket = byKind[item.kind];
    items++;
    bucket.items++;
    if (checkpoint.includes(spelling)) {
      inCheckpoint++;
      bucket.inCheckpoint++;
    }
    if (keptText.includes(spelling)) {
      inKept++;
      bucket.inKept++;
    } else missing.push(describe(item));
  }
  const requests = requestChecks(compaction.input.messages, checkpoint);
  return {
    file: compaction.file,
    contextLength,
    tokensAfter,
    items,
    inCheckpoint,
    inKept,
    byKind,
    missing,
    ...requests,
    checkpointTokens: count(checkpoint),
  };
}

function describe(item: ReferenceItem): string {
  return `${item.kind}: ${item.text}`;
}

function checkpointTexts(messages: readonly Message[]): string[] {
  const out: string[] = [];
  for (const message of messages) {
    const checkpoint = checkpointOf(message);
    if (checkpoint !== undefined && checkpoint.author === 'condense') out.push(checkpoint.body);
  }
  return out;
}

/**
 * The person's first and latest substantive prompts in the input, checked against the checkpoint's Original
 * and Current Request sections: each must be that prompt (verbatim, or its start when trimmed in the middle).
 * A request that stayed verbatim in the kept messages needs no section; then only the absence of harness text
 * there is checked.
 */
function requestChecks(
  messages: readonly Message[],
  checkpoint: string,
): { originalRequestRight: boolean | undefined; currentRequestRight: boolean } {
  const prompts: string[] = [];
  for (const message of messages) {
    const turn = classifyUserMessage(message);
    if (turn !== undefined && turn.kind === 'prompt' && !turn.continuation && turn.text.trim() !== '')
      prompts.push(turn.text.trim());
  }
  const sections = parseSections(checkpoint).sections;
  const requestText = (section: string | undefined) =>
    section
      ?.split('\n')
      .filter((line) => !line.startsWith('(then the person wrote'))
      .join('\n')
      .trim();
  const current = requestText(sections.get('currentRequest'));
  const stated = requestText(sections.get('originalRequest'));
  const original =
    stated !== undefined && /^same as the current request\.?$/i.test(stated) ? current : stated;
  const matches = (section: string | undefined, prompt: string | undefined): boolean => {
    if (prompt === undefined) return section === undefined || !looksInjected(section);
    if (section === undefined) return false;
    const head = section.split('\n…[')[0]?.trim() ?? '';
    return head !== '' && prompt.startsWith(head.slice(0, Math.min(head.length, 400)));
  };
  return {
    originalRequestRight: prompts.length === 0 ? undefined : matches(original, prompts[0]),
    currentRequestRight: matches(current, prompts[prompts.length - 1]),
  };
}

function looksInjected(text: string): boolean {
  return /<(?:task-notification|system-reminder|local-command-stdout|command-name)>/.test(text);
}
