import { isSpace } from '../model/characters.js';
import { memoByObject } from '../model/memo-by-object.js';
import type { Message } from '../model/message.js';
import { withParts } from '../model/message-helpers.js';
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
const HERMES_MERGE_HEADER = '[PRIOR CONTEXT — for reference only; not a new message]';
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
  /**
   * Text the same string carries besides the checkpoint: what follows its end marker (a wire format that joins
   * a message's text parts into one string merges the checkpoint with the request after it) or, in Hermes'
   * merged form, the message's own text before the summary. Exact, but for the one newline that joined them.
   */
  readonly rest?: string;
}

/** The full text of a condense checkpoint: header naming its source, handoff preamble, body, end marker. */
export function renderCheckpoint(body: string, source: CheckpointSource): string {
  return `${HEADER_START} · reference only · source: ${source}]\n${PREAMBLE}\n\n${body.trim()}\n\n${END_MARKER}`;
}

/** Recognises checkpoint text written by condense, Hermes (current, historical and legacy) or Claude Code. */
export function parseCheckpoint(text: string): ParsedCheckpoint | undefined {
  if (!mayHoldCheckpoint(text)) return undefined;
  const trimmed = text.trimStart();
  if (trimmed.startsWith(HEADER_START)) {
    const headerEnd = trimmed.indexOf('\n');
    const header = headerEnd === -1 ? trimmed : trimmed.slice(0, headerEnd);
    const source = /source: (model|extractive|fallback-marker)\]/.exec(header)?.[1] as
      | CheckpointSource
      | undefined;
    const split = splitAtEnd(headerEnd === -1 ? '' : trimmed.slice(headerEnd + 1), END_MARKER);
    let body = split.body;
    if (body.startsWith(PREAMBLE)) body = body.slice(PREAMBLE.length);
    return {
      body: body.trim(),
      author: 'condense',
      ...(source === undefined ? {} : { source }),
      ...(split.rest === undefined ? {} : { rest: split.rest }),
    };
  }
  const delimiter = trimmed.indexOf(HERMES_MERGE_DELIMITER);
  if (delimiter === -1) {
    if (trimmed.startsWith(HERMES_LEGACY_PREFIX)) {
      return hermesCheckpoint(trimmed.slice(HERMES_LEGACY_PREFIX.length), 'hermes-legacy', undefined);
    }
    if (trimmed.startsWith(HERMES_PREFIX)) return hermesCheckpoint(hermesBody(trimmed), 'hermes', undefined);
  } else {
    const afterMerge = trimmed.slice(delimiter + HERMES_MERGE_DELIMITER.length).trimStart();
    const before = trimmed.slice(0, delimiter);
    const prior = (before.startsWith(HERMES_MERGE_HEADER) ? before.slice(HERMES_MERGE_HEADER.length) : before)
      .replace(/^\r?\n/, '')
      // Not `/\s+$/`: it rescans every long run of white space inside the text to its end (quadratic).
      .trimEnd();
    if (afterMerge.startsWith(HERMES_LEGACY_PREFIX)) {
      return hermesCheckpoint(afterMerge.slice(HERMES_LEGACY_PREFIX.length), 'hermes-legacy', prior);
    }
    if (afterMerge.startsWith(HERMES_PREFIX))
      return hermesCheckpoint(hermesBody(afterMerge), 'hermes', prior);
  }
  if (trimmed.startsWith(CLAUDE_CODE_PREFIX)) {
    return { body: trimmed.slice(CLAUDE_CODE_PREFIX.length).trim(), author: 'claude-code' };
  }
  return undefined;
}

/**
 * False when `text` cannot be one of the checkpoints {@link parseCheckpoint} recognises, found without copying
 * it: every marker but Hermes' merge delimiter opens the trimmed text, and all but Claude Code's start with `[`.
 * Nearly every text of a transcript is answered here, most of them by its first character.
 */
function mayHoldCheckpoint(text: string): boolean {
  let start = 0;
  // What `trimStart` removes, without making the copy.
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  if (text.charCodeAt(start) === OPENING_BRACKET) return true;
  return text.startsWith(CLAUDE_CODE_PREFIX, start) || text.includes(HERMES_MERGE_DELIMITER, start);
}

const OPENING_BRACKET = 0x5b;

/** A Hermes summary `body` (up to its end marker), with the message's own text `prior` to a merged summary. */
function hermesCheckpoint(
  body: string,
  author: CheckpointAuthor,
  prior: string | undefined,
): ParsedCheckpoint {
  const split = splitAtEnd(body, HERMES_END_MARKER);
  const rest = [prior, split.rest].filter((piece): piece is string => piece !== undefined && piece !== '');
  return { body: split.body.trim(), author, ...(rest.length === 0 ? {} : { rest: rest.join('\n') }) };
}

/**
 * Splits text at the first end marker: the body before it, and what follows (without the one newline a codec
 * joined the two with), when anything does.
 */
function splitAtEnd(text: string, marker: string): { body: string; rest?: string } {
  const at = text.indexOf(marker);
  if (at === -1) return { body: text };
  const rest = text.slice(at + marker.length).replace(/^\r?\n/, '');
  return rest.trim() === '' ? { body: text.slice(0, at) } : { body: text.slice(0, at), rest };
}

/** Hermes' prefixes are one long paragraph ending in a colon; the body starts on the next line. */
function hermesBody(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? '' : text.slice(newline + 1);
}

type MessageCheckpoint = ParsedCheckpoint & { readonly partIndex: number };

/** The checkpoint a message carries (in its first text part), if any, with the index of that part. */
export function checkpointOf(message: Message): MessageCheckpoint | undefined {
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  const partIndex = firstTextPart(message);
  // Answered without the memo for nearly every message: a WeakMap entry for a fresh message costs more than
  // this check, and each compaction meets a transcript's messages as new objects.
  if (partIndex === -1 || !mayHoldCheckpoint((message.parts[partIndex] as TextPart).text)) return undefined;
  return knownCheckpoint(message);
}

// Boundaries, layout, summarizer and provenance all ask about the same messages, which are immutable.
const knownCheckpoint = memoByObject(findCheckpoint);

function findCheckpoint(message: Message): MessageCheckpoint | undefined {
  const partIndex = firstTextPart(message);
  if (partIndex === -1) return undefined;
  const parsed = parseCheckpoint((message.parts[partIndex] as TextPart).text);
  return parsed === undefined ? undefined : { ...parsed, partIndex };
}

function firstTextPart(message: Message): number {
  const parts = message.parts;
  for (let index = 0; index < parts.length; index++) if (parts[index]?.type === 'text') return index;
  return -1;
}

/** True when the message is (or begins with) a compaction checkpoint. */
export function isCheckpointMessage(message: Message): boolean {
  return checkpointOf(message) !== undefined;
}

/**
 * The message without its checkpoint: the checkpoint part removed, or replaced by the text that shared its
 * string (a request merged into it on the wire). `undefined` when nothing else is left.
 */
export function withoutCheckpoint(message: Message): Message | undefined {
  const checkpoint = checkpointOf(message);
  if (checkpoint === undefined) return message;
  const parts = message.parts.flatMap((part, index) => {
    if (index !== checkpoint.partIndex) return [part];
    return checkpoint.rest === undefined ? [] : [{ ...part, text: checkpoint.rest }];
  });
  return parts.length === 0 ? undefined : withParts(message, parts);
}

/**
 * True when the message carries something the user actually wrote besides any checkpoint: a user message
 * whose only content is a checkpoint is a handoff, not a request.
 */
export function hasUserContentBesidesCheckpoint(message: Message): boolean {
  if (message.role !== 'user') return false;
  const rest = withoutCheckpoint(message);
  return (
    rest?.parts.some(
      (part) => (part.type !== 'text' || part.text.trim() !== '') && part.type !== 'reasoning',
    ) === true
  );
}
