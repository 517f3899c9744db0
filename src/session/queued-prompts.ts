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
 * prompt, `remove` withdraws the newest. `lineOf` gives the file line of a message (by its id).
 */
export function queuedPrompts(
  operations: readonly QueueOperation[],
  transcript: Transcript,
  lineOf: (message: Message) => number | undefined,
): QueuedPrompt[] {
  const lines = transcript.messages.map(lineOf);
  const texts = transcript.messages.map((message) => (message.role === 'assistant' ? '' : sentText(message)));
  const pending: { operation: QueueOperation; status: QueuedPrompt['status'] }[] = [];
  const all: typeof pending = [];
  for (const operation of operations) {
    if (operation.operation === 'enqueue') {
      const item = { operation, status: 'pending' as QueuedPrompt['status'] };
      pending.push(item);
      all.push(item);
    } else if (operation.operation === 'dequeue') {
      const first = pending.shift();
      if (first !== undefined) first.status = 'dequeued';
    } else if (operation.operation === 'remove' || operation.operation === 'popAll') {
      const taken = operation.operation === 'popAll' ? pending.splice(0) : pending.splice(-1);
      for (const item of taken) item.status = 'removed';
    }
  }
  const out: QueuedPrompt[] = [];
  for (const { operation, status } of all) {
    const text = operation.text?.trim();
    if (text === undefined || text === '') continue;
    const delivered = texts.some(
      (said, at) => (lines[at] ?? Number.POSITIVE_INFINITY) > operation.line && carries(said, text),
    );
    if (delivered) continue;
    const afterMessage = lines.filter((line) => line !== undefined && line < operation.line).length;
    out.push({
      text,
      line: operation.line,
      status,
      afterMessage,
      ...(operation.timestamp === undefined ? {} : { timestamp: operation.timestamp }),
    });
  }
  return out;
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

function carries(said: string, prompt: string): boolean {
  if (said.includes(prompt)) return true;
  const command = /^\/[\w:-]+/.exec(prompt)?.[0];
  return command !== undefined && said.includes(`<command-name>${command}</command-name>`);
}
