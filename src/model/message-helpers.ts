import type { Message } from './message.js';
import type { Part, TextPart, ToolCallPart, ToolResultContentPart, ToolResultPart } from './part.js';

/** A text part. */
export function textPart(text: string): TextPart {
  return { type: 'text', text };
}

/**
 * A copy of `message` with new parts. The origin is dropped because the wire value no longer matches; every
 * other piece of meta (codec envelope fields, condense markers) is kept.
 */
export function withParts(message: Message, parts: readonly Part[]): Message {
  const { origin: _origin, ...rest } = message.meta ?? {};
  const meta = Object.keys(rest).length > 0 ? rest : undefined;
  return {
    role: message.role,
    parts,
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(meta === undefined ? {} : { meta }),
  };
}

/** The concatenated text of a message's text parts, joined by newlines. */
export function messageText(message: Message): string {
  let out = '';
  for (const part of message.parts) {
    if (part.type !== 'text') continue;
    out = out.length === 0 ? part.text : `${out}\n${part.text}`;
  }
  return out;
}

/** The text of a tool result's content (text parts only, joined by newlines). */
export function toolResultText(content: readonly ToolResultContentPart[]): string {
  let out = '';
  for (const part of content) {
    if (part.type !== 'text') continue;
    out = out.length === 0 ? part.text : `${out}\n${part.text}`;
  }
  return out;
}

/** The tool calls a message makes, in order. */
export function toolCallsOf(message: Message): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The tool results a message carries, in order. */
export function toolResultsOf(message: Message): ToolResultPart[] {
  return message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
}
