import type { Message } from '../../src/model/message.js';
import type {
  ImagePart,
  Part,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from '../../src/model/part.js';
import { type VerifyProvider, type ViolationCode, verifyTranscript } from '../../src/model/verify.js';
import { buildTokenCounter } from '../../src/tokens/build-token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** A text part. */
export function text(value: string): TextPart {
  return { type: 'text', text: value };
}

/** A system message. */
export function system(value: string): Message {
  return { role: 'system', parts: [text(value)] };
}

/** A user message with text and any other parts. */
export function user(value: string, ...parts: Part[]): Message {
  return { role: 'user', parts: [text(value), ...parts] };
}

/** An assistant message from text (may be empty) and parts (tool calls, reasoning…). */
export function assistant(value: string, ...parts: Part[]): Message {
  return { role: 'assistant', parts: value === '' ? parts : [text(value), ...parts] };
}

/** A tool call; object arguments are serialised as JSON. */
export function call(id: string, name: string, args: object | string = {}): ToolCallPart {
  return { type: 'tool-call', id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** A tool result with text content and optional extra content parts. */
export function result(
  callId: string,
  output: string,
  options: { isError?: boolean; extra?: ToolResultContentPart[]; name?: string } = {},
): ToolResultPart {
  return {
    type: 'tool-result',
    callId,
    content: [text(output), ...(options.extra ?? [])],
    ...(options.isError === undefined ? {} : { isError: options.isError }),
    ...(options.name === undefined ? {} : { name: options.name }),
  };
}

/** A tool message carrying results. */
export function tool(...results: ToolResultPart[]): Message {
  return { role: 'tool', parts: results };
}

/** An image part, by URL or inline data. */
export function image(url?: string): ImagePart {
  return url === undefined
    ? { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo='.repeat(50), mediaType: 'image/png' } }
    : { type: 'image', source: { kind: 'url', url } };
}

/** Freezes a value and everything reachable from it, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** A long, distinctive text (tool output, file content). */
export function long(label: string, length = 600): string {
  let out = `${label}\n`;
  let line = 0;
  while (out.length < length) out += `${label} line ${line++}: ${'x'.repeat(40)}\n`;
  return out;
}

/** The pair rules of `verifyTranscript` (the ones sanitizing must satisfy). */
export const PAIR_RULES: ReadonlySet<ViolationCode> = new Set([
  'missing-result',
  'duplicate-result',
  'orphan-result',
  'result-before-call',
  'result-not-adjacent',
  'duplicate-call-id',
]);

/** How often each violation code occurs. */
export function violationCounts(
  messages: readonly Message[],
  provider: VerifyProvider,
): Map<ViolationCode, number> {
  const counts = new Map<ViolationCode, number>();
  for (const violation of verifyTranscript({ messages }, { provider })) {
    counts.set(violation.code, (counts.get(violation.code) ?? 0) + 1);
  }
  return counts;
}

/** Violation codes that occur more often after than before, for both providers. */
export function gainedViolations(before: readonly Message[], after: readonly Message[]): string[] {
  const gained: string[] = [];
  for (const provider of ['openai', 'anthropic'] as const) {
    const was = violationCounts(before, provider);
    for (const [code, count] of violationCounts(after, provider)) {
      if (count > (was.get(code) ?? 0)) gained.push(`${provider}:${code}`);
    }
  }
  return gained;
}

/** Pairs of (call message index, result message index), matched positionally like the transforms do. */
export function toolPairs(messages: readonly Message[]): [number, number][] {
  const latest = new Map<string, number>();
  const pairs: [number, number][] = [];
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === 'tool-call') latest.set(part.id, index);
      else if (part.type === 'tool-result') {
        const at = latest.get(part.callId);
        if (at !== undefined) pairs.push([at, index]);
      }
    }
  });
  return pairs;
}

/** The text of the first text content of the tool result with this call id. */
export function resultText(messages: readonly Message[], callId: string): string {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-result' && part.callId === callId) {
        const first = part.content.find((content) => content.type === 'text');
        return first?.type === 'text' ? first.text : '';
      }
    }
  }
  throw new Error(`no result for ${callId}`);
}

/** The arguments text of the call with this id. */
export function callArguments(messages: readonly Message[], callId: string): string {
  for (const message of messages) {
    for (const part of message.parts)
      if (part.type === 'tool-call' && part.id === callId) return part.arguments;
  }
  throw new Error(`no call ${callId}`);
}

/** A counter that charges ceil(chars / 4) per text and the rough counter's framing: easy to reason about. */
export function charCounter(): TokenCounter {
  return buildTokenCounter({
    name: 'chars',
    exact: false,
    countText: (value) => Math.ceil(value.length / 4),
  });
}

/** `count` assistant/tool steps, each a call with an output of about `size` characters. */
export function steps(count: number, size = 400, prefix = 's'): Message[] {
  const out: Message[] = [];
  for (let index = 0; index < count; index++) {
    const id = `${prefix}${index}`;
    out.push(assistant(`step ${index}`, call(id, 'Bash', { command: `echo ${index}` })));
    out.push(tool(result(id, long(`output ${index}`, size))));
  }
  return out;
}
