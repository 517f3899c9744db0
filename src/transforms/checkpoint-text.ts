import type { Message } from '../model/message.js';
import type { TextPart } from '../model/part.js';

/** Where checkpoint text came from, as written in its header line. */
export type CheckpointSource = 'model' | 'extractive' | 'fallback-marker';

/** Which system wrote a checkpoint condense recognises. */
export type CheckpointAuthor = 'condense' | 'hermes' | 'hermes-legacy' | 'claude-code';

const HEADER_START = '[condense checkpoint';
const END_MARKER = '[end of condense checkpoint: the conversation continues below]';
const PREAMBLE =
  'Earlier turns of this conversation were condensed into the notes below. They record work that already ' +
  'happened and are background, not instructions. The most recent message the user wrote outside these notes ' +
  'is what to act on now; requests listed here were already handled unless that message asks to continue them. ' +
  'Your tools work as before.';

// Other systems' markers, matched exactly so transcripts they compacted can be continued (recognition only).
const HERMES_PREFIX = '[CONTEXT COMPACTION';
const HERMES_LEGACY_PREFIX = '[CONTEXT SUMMARY]:';
const HERMES_MERGE_DELIMITER = '[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]';
const HERMES_END_MARKER =
  '--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---';
const CLAUDE_CODE_PREFIX =
  'This session is being continued from a previous conversation that ran out of context.';

/** A checkpoint found in text: its body without header or markers, and who wrote it. */
export interface ParsedCheckpoint {
  readonly body: string;
  readonly author: CheckpointAuthor;
  /** Source named in a condense header. */
  readonly source?: CheckpointSource;
}

/** The full text of a condense checkpoint: header naming its source, handoff preamble, body, end marker. */
export function renderCheckpoint(body: string, source: CheckpointSource): string {
  return `${HEADER_START} · reference only · source: ${source}]\n${PREAMBLE}\n\n${body.trim()}\n\n${END_MARKER}`;
}

/** Recognises checkpoint text written by condense, Hermes (current, historical and legacy) or Claude Code. */
export function parseCheckpoint(text: string): ParsedCheckpoint | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith(HEADER_START)) {
    const headerEnd = trimmed.indexOf('\n');
    const header = headerEnd === -1 ? trimmed : trimmed.slice(0, headerEnd);
    const source = /source: (model|extractive|fallback-marker)\]/.exec(header)?.[1] as
      | CheckpointSource
      | undefined;
    let body = headerEnd === -1 ? '' : trimmed.slice(headerEnd + 1);
    if (body.startsWith(PREAMBLE)) body = body.slice(PREAMBLE.length);
    body = stripSuffix(body.trim(), END_MARKER).trim();
    return source === undefined ? { body, author: 'condense' } : { body, author: 'condense', source };
  }
  const afterMerge = trimmed.includes(HERMES_MERGE_DELIMITER)
    ? (trimmed.split(HERMES_MERGE_DELIMITER).pop() ?? '').trimStart()
    : trimmed;
  if (afterMerge.startsWith(HERMES_LEGACY_PREFIX)) {
    return {
      body: stripSuffix(afterMerge.slice(HERMES_LEGACY_PREFIX.length).trim(), HERMES_END_MARKER).trim(),
      author: 'hermes-legacy',
    };
  }
  if (afterMerge.startsWith(HERMES_PREFIX)) {
    return { body: stripSuffix(hermesBody(afterMerge), HERMES_END_MARKER).trim(), author: 'hermes' };
  }
  if (trimmed.startsWith(CLAUDE_CODE_PREFIX)) {
    return { body: trimmed.slice(CLAUDE_CODE_PREFIX.length).trim(), author: 'claude-code' };
  }
  return undefined;
}

/** Hermes' prefixes are one long paragraph ending in a colon; the body starts on the next line. */
function hermesBody(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? '' : text.slice(newline + 1);
}

function stripSuffix(text: string, suffix: string): string {
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}

/** The checkpoint a message carries (in its first text part), if any, with the index of that part. */
export function checkpointOf(
  message: Message,
): (ParsedCheckpoint & { readonly partIndex: number }) | undefined {
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  const partIndex = message.parts.findIndex((part) => part.type === 'text');
  if (partIndex === -1) return undefined;
  const parsed = parseCheckpoint((message.parts[partIndex] as TextPart).text);
  return parsed === undefined ? undefined : { ...parsed, partIndex };
}

/** True when the message is (or begins with) a compaction checkpoint. */
export function isCheckpointMessage(message: Message): boolean {
  return checkpointOf(message) !== undefined;
}

/**
 * True when the message carries something the user actually wrote besides any checkpoint: a user message
 * whose only content is a checkpoint is a handoff, not a request.
 */
export function hasUserContentBesidesCheckpoint(message: Message): boolean {
  if (message.role !== 'user') return false;
  const checkpoint = checkpointOf(message);
  return message.parts.some(
    (part, index) =>
      index !== checkpoint?.partIndex &&
      (part.type !== 'text' || part.text.trim() !== '') &&
      part.type !== 'reasoning',
  );
}
