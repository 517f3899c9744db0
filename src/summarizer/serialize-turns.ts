import { appendAll } from '../model/arrays.js';
import type { Message } from '../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../model/part.js';
import { removeReasoningBlocks } from './reasoning-blocks.js';

/** Bounds of the text the serializer writes per message. */
export interface SerializeOptions {
  /**
   * Longest body kept whole, in characters; a longer one keeps its head and tail around an omission marker.
   * @default 6000
   */
  readonly maxMessageChars?: number;
  /** Characters kept from the start of a long body. @default two thirds of maxMessageChars */
  readonly headChars?: number;
  /** Characters kept from the end of a long body. @default a quarter of maxMessageChars */
  readonly tailChars?: number;
  /** Longest tool-call argument text kept whole, in characters. @default 1500 */
  readonly maxArgumentChars?: number;
}

const DEFAULT_MAX_MESSAGE = 6000;
const DEFAULT_MAX_ARGUMENTS = 1500;

/** Options with every default filled in. */
export interface ResolvedSerializeOptions {
  readonly maxMessageChars: number;
  readonly headChars: number;
  readonly tailChars: number;
  readonly maxArgumentChars: number;
}

/** Fills in the defaults of {@link SerializeOptions}. */
export function resolveSerializeOptions(options: SerializeOptions = {}): ResolvedSerializeOptions {
  const maxMessageChars = Math.max(200, options.maxMessageChars ?? DEFAULT_MAX_MESSAGE);
  return {
    maxMessageChars,
    headChars: options.headChars ?? Math.floor((maxMessageChars * 2) / 3),
    tailChars: options.tailChars ?? Math.floor(maxMessageChars / 4),
    maxArgumentChars: Math.max(100, options.maxArgumentChars ?? DEFAULT_MAX_ARGUMENTS),
  };
}

/** Keeps the head and tail of a long text, saying how much was left out between them. */
export function clipMiddle(text: string, max: number, head: number, tail: number): string {
  if (text.length <= max) return text;
  const start = safeEnd(text, Math.min(head, max));
  const endStart = safeStart(text, text.length - Math.min(tail, Math.max(0, max - start.length)));
  const omitted = text.length - start.length - (text.length - endStart);
  return `${start}\n…[${omitted} characters omitted]…\n${text.slice(endStart)}`;
}

function safeEnd(text: string, end: number): string {
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

function safeStart(text: string, start: number): number {
  const code = text.charCodeAt(start);
  return code >= 0xdc00 && code <= 0xdfff ? start + 1 : start;
}

/** Removes reasoning blocks a model wrote inline (`<think>…</think>` and its cousins). */
export function stripReasoningTags(text: string): string {
  let out = removeReasoningBlocks(text);
  // An unterminated block that opens a line runs to the end of the text.
  out = out.replace(/(^|\n)[ \t]*<(think|thinking|reasoning|thought|REASONING_SCRATCHPAD)>[\s\S]*$/i, '$1');
  return out;
}

function renderCall(call: ToolCallPart, options: ResolvedSerializeOptions): string {
  const args =
    call.arguments.length > options.maxArgumentChars
      ? `${safeEnd(call.arguments, Math.floor(options.maxArgumentChars * 0.8))}…[arguments cut]`
      : call.arguments;
  return `→ ${call.name}(${args})`;
}

function renderResultBody(result: ToolResultPart): string {
  const pieces: string[] = [];
  for (const content of result.content) {
    if (content.type === 'text') pieces.push(content.text);
    else if (content.type === 'image') pieces.push(imagePlaceholder(content.source));
    else pieces.push(`[${content.kind}]`);
  }
  return pieces.join('\n');
}

function imagePlaceholder(source: Extract<Part, { type: 'image' }>['source']): string {
  return source.kind === 'url' && /^https?:\/\//i.test(source.url) ? `[image: ${source.url}]` : '[image]';
}

/**
 * Renders one message for the summarizer: a role line, then its text (reasoning removed, images as
 * placeholders), tool calls with their arguments, and tool results labelled with the tool name. The body is
 * bounded by `maxMessageChars` (head and tail kept).
 */
export function serializeMessage(
  message: Message,
  options: ResolvedSerializeOptions,
  toolNames: ReadonlyMap<string, string> = new Map(),
): string {
  const body: string[] = [];
  const calls: string[] = [];
  const results: string[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text': {
        const text = message.role === 'assistant' ? stripReasoningTags(part.text) : part.text;
        if (text.trim() !== '') body.push(text.trim());
        break;
      }
      case 'image':
        body.push(imagePlaceholder(part.source));
        break;
      case 'tool-call':
        calls.push(renderCall(part, options));
        break;
      case 'tool-result': {
        const name = part.name ?? toolNames.get(part.callId) ?? 'tool';
        const label = `[result of ${name}${part.isError === true ? ', failed' : ''}]`;
        results.push(`${label}\n${renderResultBody(part)}`);
        break;
      }
      case 'opaque':
        body.push(`[${part.kind}]`);
        break;
      case 'reasoning':
        break;
    }
  }
  const text = [...body, ...results].join('\n');
  const clipped = clipMiddle(text, options.maxMessageChars, options.headChars, options.tailChars);
  const lines = [`[${message.role.toUpperCase()}]`];
  if (clipped !== '') lines.push(clipped);
  appendAll(lines, calls);
  return lines.join('\n');
}

/** The tool name of every call id in the messages, so results can be labelled when the format omits it. */
export function toolNamesById(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  return names;
}

/** Renders turns for the summarizer, one block per message, blocks separated by a blank line. */
export function serializeTurns(messages: readonly Message[], options: SerializeOptions = {}): string {
  const resolved = resolveSerializeOptions(options);
  const names = toolNamesById(messages);
  return messages.map((message) => serializeMessage(message, resolved, names)).join('\n\n');
}
