import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import { unmarkResult } from '../portable/tool-error.js';
import { embeddedText, embedJsonText, pythonJson, topLevelSpans, tryParseJson } from './json-text.js';
import { stripWrappingNewlines } from './parse-hermes-tags.js';

/**
 * Conversions between model parts and the pieces of Hermes-style values. Fresh renderings follow Hermes'
 * `_convert_to_trajectory_format`: `<think>\n…\n</think>`, `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`,
 * `<tool_response>\n{"name": …, "content": …}\n</tool_response>`. Call ids are never written (ShareGPT has none).
 */

/** The tool name of a call id, for results that do not carry one. */
export type CallNameLookup = (callId: string) => string | undefined;

/** A call read from its JSON text (`{"name", "arguments"}`), or `undefined` when the text is not such a call. */
export function callFromJson(text: string, id: string): ToolCallPart | undefined {
  const trimmed = text.trim();
  const parsed = tryParseJson(trimmed);
  if (parsed === undefined || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  if (Array.isArray(parsed.value)) return undefined;
  const object = parsed.value as Record<string, unknown>;
  if (typeof object['name'] !== 'string') return undefined;
  const spans = topLevelSpans(trimmed);
  const source = spans?.get('arguments');
  const args = source === undefined ? '{}' : embeddedText(source, object['arguments']);
  return { type: 'tool-call', id, name: object['name'], arguments: args };
}

/** The JSON text of a call in Python's layout, with the arguments text embedded as it is. */
export function callJson(part: ToolCallPart): string {
  const args = embedJsonText(part.arguments, (value) => typeof value !== 'string');
  return `{"name": ${pythonJson(part.name)}, "arguments": ${args}}`;
}

/** A reasoning part from the body of a `<think>` tag. */
export function reasoningFromBody(body: string): ReasoningPart {
  return { type: 'reasoning', text: stripWrappingNewlines(body) };
}

/** A tool result from the body of a `<tool_response>` tag: Hermes' `{"name", "content"}` envelope, or text. */
export function resultFromBody(body: string, callId: string): ToolResultPart {
  const inner = stripWrappingNewlines(body);
  const trimmed = inner.trim();
  const parsed = tryParseJson(trimmed);
  if (parsed !== undefined && typeof parsed.value === 'object' && parsed.value !== null) {
    const object = parsed.value as Record<string, unknown>;
    const source = Array.isArray(object) ? undefined : topLevelSpans(trimmed)?.get('content');
    if (source !== undefined) {
      const name = object['name'];
      return unmarkResult({
        type: 'tool-result',
        callId,
        ...(typeof name === 'string' ? { name } : {}),
        content: [{ type: 'text', text: embeddedText(source, object['content']) }],
      });
    }
  }
  return unmarkResult({ type: 'tool-result', callId, content: [{ type: 'text', text: inner }] });
}

/** The text of a tool result: its text parts joined by newlines, with `[image]` for images. */
export function resultText(part: ToolResultPart): string {
  return part.content
    .flatMap((item) => {
      if (item.type === 'text') return [item.text];
      if (item.type === 'image') return ['[image]'];
      return [];
    })
    .join('\n');
}

/** Renders one part the Hermes way, without the separator that follows it; `undefined` for parts ShareGPT drops. */
export function renderHermesPart(part: Part, nameOf: CallNameLookup): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return part.text === '' ? '<think>\n</think>' : `<think>\n${part.text}\n</think>`;
    case 'tool-call':
      return `<tool_call>\n${callJson(part)}\n</tool_call>`;
    case 'tool-result': {
      const name = part.name ?? nameOf(part.callId) ?? 'unknown';
      const content = embedJsonText(resultText(part), (value) => typeof value === 'object' && value !== null);
      return `<tool_response>\n{"name": ${pythonJson(name)}, "content": ${content}}\n</tool_response>`;
    }
    case 'image':
      return '[image]';
    case 'opaque':
      return undefined;
  }
}

/** True when two parts say the same thing in ShareGPT terms (ids, meta and signatures are not written). */
export function sameInShareGpt(left: Part, right: Part): boolean {
  if (left.type !== right.type) return false;
  switch (left.type) {
    case 'text':
    case 'reasoning':
      return left.text === (right as typeof left).text;
    case 'tool-call': {
      const other = right as ToolCallPart;
      return left.name === other.name && left.arguments === other.arguments;
    }
    case 'tool-result': {
      const other = right as ToolResultPart;
      const sameName = left.name === undefined || other.name === undefined || left.name === other.name;
      return sameName && resultText(left) === resultText(other) && onlyText(left) && onlyText(other);
    }
    case 'image':
    case 'opaque':
      return false;
  }
}

function onlyText(part: ToolResultPart): boolean {
  return part.content.every((item) => item.type === 'text');
}
