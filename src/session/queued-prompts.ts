import { substringScan } from '../inspect/substring-scan.js';
import { Queue } from '../model/arrays.js';
import { isJsonObject, type JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import { messageText } from '../model/message-helpers.js';
import type { Transcript } from '../model/transcript.js';
import type { QueuedPrompt } from './session-types.js';

/** A `queue-operation` record: a prompt typed while the agent was busy (`enqueue`), taken or withdrawn later. */
export interface QueueOperation {
  readonly line: number;
  readonly operation: string;
  readonly text: string | undefined;
  readonly timestamp: string | undefined;
}

/** Reads a parsed `queue-operation` record. */
export function queueOperationOf(value: JsonObject, line: number): QueueOperation {
  const operation = typeof value['operation'] === 'string' ? value['operation'] : 'unknown';
  const timestamp = typeof value['timestamp'] === 'string' ? value['timestamp'] : undefined;
  return { line, operation, text: contentText(value['content']), timestamp };
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block) =>
    isJsonObject(block) && block['type'] === 'text' && typeof block['text'] === 'string'
      ? [block['text']]
      : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

/**
 * Prompts that exist only in the prompt queue: every `enqueue` whose text no later message of the conversation
 * carries (as typed, or as the slash command it ran), with what became of it. `dequeue` takes the oldest queued
 * prompt, `remove` withdraws the newest. `lineOf` gives the file line of a message (by its id); a message without
 * one counts as later than every operation. Linear in the messages' text however many prompts were queued.
 */
export function queuedPrompts(
  operations: readonly QueueOperation[],
  transcript: Transcript,
  lineOf: (message: Message) => number | undefined,
): QueuedPrompt[] {
  const pending = new Queue<{ operation: QueueOperation; status: QueuedPrompt['status'] }>();
  const all: { operation: QueueOperation; status: QueuedPrompt['status'] }[] = [];
  for (const operation of operations) {
    if (operation.operation === 'enqueue') {
      const item = { operation, status: 'pending' as QueuedPrompt['status'] };
      pending.push(item);
      all.push(item);
    } else if (operation.operation === 'dequeue') {
      const first = pending.take();
      if (first !== undefined) first.status = 'dequeued';
    } else if (operation.operation === 'remove' || operation.operation === 'popAll') {
      const taken = operation.operation === 'popAll' ? pending.takeAll() : [pending.takeLast()];
      for (const item of taken) if (item !== undefined) item.status = 'removed';
    }
  }
  const queued = all.flatMap(({ operation, status }) => {
    const text = operation.text?.trim();
    return text === undefined || text === '' ? [] : [{ operation, status, text, command: commandOf(text) }];
  });
  if (queued.length === 0) return [];
  const lines = transcript.messages.map(lineOf);
  const carried = lastLineCarrying(
    queued.flatMap(({ text, command }) => (command === undefined ? [text] : [text, command])),
    transcript.messages,
    lines,
  );
  const known = lines.filter((line): line is number => line !== undefined).sort((a, b) => a - b);
  const out: QueuedPrompt[] = [];
  for (const { operation, status, text, command } of queued) {
    const delivered =
      (carried.get(text) as number) > operation.line ||
      (command !== undefined && (carried.get(command) as number) > operation.line);
    if (delivered) continue;
    out.push({
      text,
      line: operation.line,
      status,
      afterMessage: countBelow(known, operation.line),
      ...(operation.timestamp === undefined ? {} : { timestamp: operation.timestamp }),
    });
  }
  return out;
}

/** The marker a slash-command prompt leaves in the message that ran it. */
function commandOf(prompt: string): string | undefined {
  const command = /^\/[\w:-]+/.exec(prompt)?.[0];
  return command === undefined ? undefined : `<command-name>${command}</command-name>`;
}

/**
 * For each needle, the last file line of a user or tool message whose text holds it (a message without a line
 * counts as after everything; -Infinity when none does). Messages are read from the last line back, so each
 * needle's first finder is its answer and the reading stops once every needle is found.
 */
function lastLineCarrying(
  needles: readonly string[],
  messages: readonly Message[],
  lines: readonly (number | undefined)[],
): Map<string, number> {
  const distinct = [...new Set(needles)];
  const last = new Map(distinct.map((needle) => [needle, Number.NEGATIVE_INFINITY]));
  const lineAt = (at: number) => lines[at] ?? Number.POSITIVE_INFINITY;
  const order = messages.map((_, at) => at).sort((a, b) => lineAt(b) - lineAt(a) || a - b);
  const search = substringScan(distinct);
  for (const at of order) {
    const message = messages[at] as Message;
    if (message.role === 'assistant') continue;
    for (const found of search.scan(sentText(message))) last.set(distinct[found] as string, lineAt(at));
    if (search.complete) break;
  }
  return last;
}

/** How many of the ascending `sorted` are below `bound`. */
function countBelow(sorted: readonly number[], bound: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as number) < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Everything a user or tool message put before the model, as one text. */
function sentText(message: Message): string {
  const results = message.parts.flatMap((part) =>
    part.type === 'tool-result'
      ? part.content.flatMap((item) => (item.type === 'text' ? [item.text] : []))
      : [],
  );
  return [messageText(message), ...results].join('\n');
}
