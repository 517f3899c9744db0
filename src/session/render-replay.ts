import type { Message } from '../model/message.js';
import type { Part, ToolResultContentPart } from '../model/part.js';
import { formatNumber } from '../transforms/text-facts.js';
import type { LoadedSubagent } from './load-session-file.js';
import type { LoadedSession, QueuedPrompt, SessionBoundary, SessionIssue } from './session-types.js';

/** Options of {@link renderReplay}. */
export interface ReplayRenderOptions {
  /** Characters of a tool result shown before it is cut. @default 400 */
  readonly resultChars?: number;
  /** Characters of other text (prompts, answers, reasoning, arguments) shown before it is cut. @default 2000 */
  readonly textChars?: number;
  /** Show everything, uncut. @default false */
  readonly full?: boolean;
}

/** What {@link renderReplay} shows: a loaded session, with its path and subagents when loaded from a file. */
export type ReplaySession = LoadedSession & {
  readonly path?: string;
  readonly subagents?: readonly LoadedSubagent[];
};

const LEAF_REASONS = {
  option: 'chosen',
  'last-prompt': 'last prompt',
  'newest-message': 'newest message',
} as const;

/**
 * The active conversation as readable text: a header (id, format, size, leaf), then every message with its role,
 * text, reasoning, tool calls with their arguments and shortened results, with compaction boundaries and prompts
 * found only in the prompt queue marked where they sit; then dead branches, subagents and issues.
 */
export function renderReplay(session: ReplaySession, options: ReplayRenderOptions = {}): string {
  let text = '';
  for (const chunk of replayChunks(session, options)) text += chunk;
  return text;
}

/** Characters gathered before {@link replayChunks} hands a chunk out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * {@link renderReplay}'s text in chunks of about 64 K characters, made as they are asked for, so a long session
 * is written out without ever holding its whole text; the chunks joined are exactly `renderReplay`'s text.
 */
export function* replayChunks(session: ReplaySession, options: ReplayRenderOptions = {}): Generator<string> {
  // The text is the lines joined by newlines, trailing whitespace cut, one newline added: whitespace at the end of
  // a chunk is held back until something else follows it.
  let held = '';
  let chunk = '';
  let first = true;
  for (const line of replayLines(session, options)) {
    chunk += first ? line : `\n${line}`;
    first = false;
    if (chunk.length < CHUNK_CHARS) continue;
    const body = chunk.trimEnd();
    if (body === '') {
      held += chunk;
    } else {
      yield held + body;
      held = chunk.slice(body.length);
    }
    chunk = '';
  }
  const body = chunk.trimEnd();
  yield `${body === '' ? '' : held + body}\n`;
}

function* replayLines(session: ReplaySession, options: ReplayRenderOptions): Generator<string> {
  const cut = (text: string, limit: number) => (options.full === true ? text : shorten(text, limit));
  const resultLimit = options.resultChars ?? 400;
  const textLimit = options.textChars ?? 2000;
  yield* header(session);
  yield '';
  const names = new Map<string, string>();
  const boundaries = new Map<number, SessionBoundary[]>();
  for (const boundary of session.boundaries) {
    const list = boundaries.get(boundary.messageIndex) ?? [];
    list.push(boundary);
    boundaries.set(boundary.messageIndex, list);
  }
  const prompts = new Map<number, QueuedPrompt[]>();
  for (const prompt of session.queuedPrompts) {
    const list = prompts.get(prompt.afterMessage) ?? [];
    list.push(prompt);
    prompts.set(prompt.afterMessage, list);
  }
  function* marks(index: number): Generator<string> {
    for (const prompt of prompts.get(index) ?? []) {
      yield queuedLine(prompt);
      yield* indent(cut(prompt.text, textLimit));
      yield '';
    }
    for (const boundary of boundaries.get(index) ?? []) {
      yield boundaryLine(boundary);
      yield '';
    }
  }
  const messages = session.transcript.messages;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    yield* marks(index);
    yield `#${index + 1} ${message.role}${message.id === undefined ? '' : `  ${message.id.slice(0, 8)}`}`;
    for (const part of message.parts)
      yield* partLines(part, names, (text, result) => cut(text, result ? resultLimit : textLimit));
    yield '';
  }
  yield* marks(messages.length);
  yield* footer(session);
}

function header(session: ReplaySession): string[] {
  const lines = [
    `session ${session.sessionId ?? '(no id)'} · ${session.format} · ${session.transcript.messages.length} messages · ${session.view} view`,
  ];
  if (session.path !== undefined) lines.push(`file: ${session.path}`);
  if (session.title !== undefined) lines.push(`title: ${session.title}`);
  if (session.leaf !== undefined) {
    lines.push(
      `leaf: ${session.leaf.uuid} (${LEAF_REASONS[session.leaf.reason]}, line ${session.leaf.line})${session.lastActivity === undefined ? '' : ` · last activity ${session.lastActivity}`}`,
    );
  }
  return lines;
}

function partLines(
  part: Part,
  names: Map<string, string>,
  cut: (text: string, result: boolean) => string,
): string[] {
  switch (part.type) {
    case 'text':
      // Claude Code writes whitespace-only text blocks around thinking; they carry nothing to read.
      return part.text.trim() === '' ? [] : indent(cut(part.text, false));
    case 'reasoning':
      return indent(
        `(reasoning) ${part.data !== undefined && part.text === '' ? '[encrypted]' : cut(part.text, false)}`,
      );
    case 'image':
      return indent(imageText(part.source.kind === 'base64' ? part.source.mediaType : part.source.url));
    case 'tool-call':
      names.set(part.id, part.name);
      return indent(`→ ${part.name} ${cut(part.arguments, false)}  [${part.id}]`);
    case 'tool-result': {
      const name = part.name ?? names.get(part.callId) ?? 'tool';
      const status = part.isError === true ? ' (error)' : '';
      return indent(`← ${name}${status}  [${part.callId}]\n${cut(resultText(part.content), true)}`);
    }
    case 'opaque':
      return indent(`[${part.kind}]`);
  }
}

function resultText(content: readonly ToolResultContentPart[]): string {
  return content
    .map((part) =>
      part.type === 'text'
        ? part.text
        : part.type === 'image'
          ? imageText(part.source.kind === 'base64' ? part.source.mediaType : part.source.url)
          : `[${part.kind}]`,
    )
    .join('\n');
}

function imageText(detail: string | undefined): string {
  return `[image${detail === undefined ? '' : ` ${detail}`}]`;
}

const BOUNDARY_NAMES: Readonly<Record<string, string>> = {
  compaction: 'condense compaction',
  'codex-compaction': 'Codex compaction',
};

const QUEUE_STATUS = {
  pending: 'still queued when the log ends, never sent',
  dequeued: 'taken from the queue, but no message carries it',
  removed: 'withdrawn from the queue',
} as const;

function queuedLine(prompt: QueuedPrompt): string {
  return `… queued prompt (line ${prompt.line}; ${QUEUE_STATUS[prompt.status]})`;
}

function boundaryLine(boundary: SessionBoundary): string {
  const facts = [
    (Object.hasOwn(BOUNDARY_NAMES, boundary.kind) ? BOUNDARY_NAMES[boundary.kind] : undefined) ??
      'compaction boundary',
    boundary.trigger,
    boundary.preTokens === undefined ? undefined : `${formatNumber(boundary.preTokens)} tokens before`,
    `line ${boundary.line}`,
    boundary.link === 'resumed'
      ? 'link to the history before it missing: continued from the newest earlier message'
      : undefined,
    boundary.link === 'missing' ? 'history before it missing' : undefined,
  ].filter((fact): fact is string => fact !== undefined);
  return `──── ${facts.join(' · ')} ────`;
}

function footer(session: ReplaySession): string[] {
  const lines: string[] = [];
  const dead = session.deadBranches;
  lines.push(`dead branches: ${dead.count}${dead.count === 0 ? '' : ` (${dead.records} records)`}`);
  for (const branch of dead.branches) {
    const fork =
      branch.forkLine === undefined
        ? 'a separate tree'
        : `forks off line ${branch.forkLine} (${(branch.forkUuid ?? '').slice(0, 8)})`;
    lines.push(
      `  ${fork}: lines ${branch.firstLine}–${branch.lastLine}, ${branch.records} records, ${branch.messages} messages (replay it with --leaf ${branch.leafUuid.slice(0, 8)})`,
    );
  }
  if (session.subagents !== undefined && session.subagents.length > 0) {
    lines.push(`subagents: ${session.subagents.length}`);
    for (const agent of session.subagents) {
      const call = agent.callId === undefined ? '' : ` from ${agent.callId}`;
      const about = agent.description === undefined ? '' : ` — ${agent.description}`;
      lines.push(
        `  agent-${agent.agentId} (${agent.kind}, ${agent.layout}, ${agent.session.transcript.messages.length} messages${call})${about}`,
      );
    }
  }
  const issues = session.issues.filter(
    (issue) => issue.severity !== 'info' || issue.code !== 'prefilter-fallback',
  );
  if (issues.length > 0) {
    lines.push(`issues: ${issues.length}`);
    for (const issue of issues.slice(0, 20)) lines.push(`  ${issueLine(issue)}`);
    if (issues.length > 20) lines.push(`  … ${issues.length - 20} more (see --json)`);
  }
  return lines;
}

function issueLine(issue: SessionIssue): string {
  return `${issue.severity} ${issue.code}${issue.line === undefined ? '' : ` (line ${issue.line})`}: ${issue.message}`;
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => `  ${line}`);
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… (+${formatNumber(text.length - limit)} chars)`;
}

/** A message as plain JSON for `--json` output: role, id and parts, without any metadata. */
export function plainMessageJson(message: Message): object {
  const strip = (part: Part): object => {
    const { meta: _meta, ...rest } = part;
    return rest.type === 'tool-result' ? { ...rest, content: rest.content.map(strip) } : rest;
  };
  return {
    role: message.role,
    ...(message.id === undefined ? {} : { id: message.id }),
    parts: message.parts.map(strip),
  };
}
