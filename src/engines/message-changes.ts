import type { Message } from '../model/message.js';
import { messageText, toolResultText } from '../model/message-helpers.js';
import type { ToolCallPart, ToolResultPart } from '../model/part.js';
import { parseCheckpoint } from '../transforms/checkpoint-text.js';
import { DIGEST_PREFIX, DUPLICATE_PREFIX } from '../transforms/condensed-markers.js';
import { isSystemMarker, isTruncatedOutput, TOOL_LINE_PREFIX } from './rules/markers.js';

/** What one engine action did to a message, counted the way the compaction report counts it. */
export interface ChangeCounts {
  digested: number;
  deduplicated: number;
  argumentsShrunk: number;
  imagesStripped: number;
  collapsedPairs: number;
  truncatedOutputs: number;
  droppedSystem: number;
  /** Tool calls removed without a collapsed record (tool pairs repaired). */
  callsRemoved: number;
  /** Tool results removed from a message that stayed (tool pairs repaired). */
  resultsRemoved: number;
  /** The checkpoint text was put in front of this message. */
  checkpointMerged: number;
  /** Text was added to a system prompt (the compressor's note). */
  noteAdded: number;
}

/** A zeroed {@link ChangeCounts}. */
export function noChanges(): ChangeCounts {
  return {
    digested: 0,
    deduplicated: 0,
    argumentsShrunk: 0,
    imagesStripped: 0,
    collapsedPairs: 0,
    truncatedOutputs: 0,
    droppedSystem: 0,
    callsRemoved: 0,
    resultsRemoved: 0,
    checkpointMerged: 0,
    noteAdded: 0,
  };
}

/**
 * What happened between a message and its rewrite, read from the markers the engines write: digests and
 * duplicate references (compressor pruning), shortened arguments, stripped images, collapsed-call records,
 * truncation markers and system markers (rules), removed calls and results, and a merged checkpoint.
 * `sources` are the before messages the rewrite stands for (several when the rules folded an assistant run).
 */
export function diffMessage(sources: readonly Message[], after: Message): ChangeCounts {
  const counts = noChanges();
  const results = new Map<string, ToolResultPart>();
  const calls = new Map<string, ToolCallPart>();
  let images = 0;
  let toolLines = 0;
  for (const source of sources) {
    for (const part of source.parts) {
      if (part.type === 'tool-result') results.set(part.callId, part);
      if (part.type === 'tool-call') calls.set(part.id, part);
    }
    images += imageCount(source);
    toolLines += toolLineCount(source);
  }
  const afterCalls = new Set<string>();
  for (const part of after.parts) {
    if (part.type === 'tool-call') {
      afterCalls.add(part.id);
      const old = calls.get(part.id);
      if (old !== undefined && old.arguments !== part.arguments) counts.argumentsShrunk++;
    }
    if (part.type !== 'tool-result') continue;
    const old = results.get(part.callId);
    const oldText = old === undefined ? '' : toolResultText(old.content);
    const text = toolResultText(part.content);
    if (text === oldText) continue;
    if (text.trimStart().startsWith(DIGEST_PREFIX) && !oldText.trimStart().startsWith(DIGEST_PREFIX))
      counts.digested++;
    else if (
      text.trimStart().startsWith(DUPLICATE_PREFIX) &&
      !oldText.trimStart().startsWith(DUPLICATE_PREFIX)
    )
      counts.deduplicated++;
    else if (isTruncatedOutput(text) && !isTruncatedOutput(oldText)) counts.truncatedOutputs++;
  }
  const resultIds = new Set(
    after.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])),
  );
  counts.resultsRemoved = [...results.keys()].filter((id) => !resultIds.has(id)).length;
  counts.imagesStripped = Math.max(0, images - imageCount(after));
  counts.collapsedPairs = Math.max(0, toolLineCount(after) - toolLines);
  const removedCalls = [...calls.keys()].filter((id) => !afterCalls.has(id)).length;
  counts.callsRemoved = Math.max(0, removedCalls - counts.collapsedPairs);
  const first = sources[sources.length - 1];
  if (after.role === 'system' && first !== undefined) {
    const text = messageText(after);
    if (isSystemMarker(text) && !isSystemMarker(messageText(first))) counts.droppedSystem++;
    else if (text.length > messageText(first).length && text.startsWith(messageText(first)))
      counts.noteAdded++;
  }
  if (
    leadingCheckpoint(after) !== undefined &&
    sources.every((source) => leadingCheckpoint(source) === undefined)
  )
    counts.checkpointMerged++;
  return counts;
}

function imageCount(message: Message): number {
  let count = 0;
  for (const part of message.parts) {
    if (part.type === 'image') count++;
    if (part.type === 'tool-result') count += part.content.filter((item) => item.type === 'image').length;
  }
  return count;
}

/** Collapsed-call records in a message's text (each stands for one tool call and its result). */
function toolLineCount(message: Message): number {
  let count = 0;
  for (const part of message.parts) {
    if (part.type === 'text') count += linesStartingWith(part.text, TOOL_LINE_PREFIX);
  }
  return count;
}

/** Lines of `text` (split at `\n`) that start with `prefix` (which holds no line break), without splitting the text. */
export function linesStartingWith(text: string, prefix: string): number {
  let count = 0;
  let at = text.indexOf(prefix);
  while (at !== -1) {
    if (at === 0 || text.charCodeAt(at - 1) === 10) count++;
    at = text.indexOf(prefix, at + 1);
  }
  return count;
}

/**
 * The text of the checkpoint a message starts with, whatever its role: the compressor merges the checkpoint
 * into the first kept message when no standalone message fits, and that may be a system message.
 */
export function leadingCheckpoint(message: Message): string | undefined {
  const part = message.parts.find((item) => item.type === 'text');
  if (part?.type !== 'text') return undefined;
  return parseCheckpoint(part.text) === undefined ? undefined : part.text;
}
