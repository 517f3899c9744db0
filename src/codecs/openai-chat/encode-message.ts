import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import { reasoningTextPart } from '../portable/reasoning-text.js';
import { markErrorContent } from '../portable/tool-error.js';
import { encodeContent } from './encode-content.js';
import { hasIntactOrigin, messageMeta, metaFlag, metaObject, metaString, partMeta } from './meta.js';
import { joinJsonArray } from './split-json-array.js';
import { encodeFunctionCall, encodeToolCall, isLegacyCall, isTypedCall } from './tool-calls.js';

/**
 * Encodes one message as the chat messages it stands for: usually one, one per tool result for a `tool`
 * message (OpenAI carries a single result per message), plus tool messages for results found outside a `tool`
 * message. An untouched message is its original wire value. `typedTranscript` says the transcript was read in
 * LLaMA-Factory's typed-part dialect, which new messages then follow.
 */
export function encodeChatMessage(message: Message, typedTranscript: boolean): unknown[] {
  if (hasIntactOrigin(message)) return [message.meta?.origin?.wire];
  const meta = messageMeta(message);
  const typed = message.meta?.codec?.openai === undefined && typedTranscript;
  const only = message.parts[0];
  if (metaFlag(meta, 'invalid') && message.parts.length === 1 && only?.type === 'opaque') return [only.value];
  const results = message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
  const rest = message.parts.filter((part) => part.type !== 'tool-result');
  switch (message.role) {
    case 'system':
    case 'user':
      return [
        ...results.flatMap((part) => encodeResults([part], {}, typed)),
        wireMessage(meta, message.role, { content: encodeContent(rest, contentEncoding(meta, typed)) }),
      ];
    case 'assistant': {
      // The Chat Completions API has no reasoning field: reasoning from elsewhere is written as `<think>` text.
      const foreign = message.meta?.codec?.openai === undefined && !typed;
      const own = rest.map((part) =>
        foreign || metaString(partMeta(part), 'field') === 'think' ? reasoningToText(part) : part,
      );
      return [assistant(own, meta, typed), ...results.flatMap((part) => encodeResults([part], {}, typed))];
    }
    case 'tool': {
      const stray =
        rest.length === 0
          ? []
          : [wireMessage({}, 'user', { content: encodeContent(rest, contentEncoding({}, typed)) })];
      return [...encodeResults(results, meta, typed), ...stray];
    }
  }
}

function contentEncoding(meta: JsonObject, typed: boolean): { shape: string | undefined; typed: boolean } {
  return { shape: metaString(meta, 'content'), typed };
}

/** A wire message: role (unless the original had an unusual one, kept among the extra keys), extra keys, body. */
function wireMessage(meta: JsonObject, role: string, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...(metaFlag(meta, 'unknownRole') ? {} : { role: metaString(meta, 'wireRole') ?? role }),
    ...metaObject(meta, 'extra'),
  };
  for (const [key, value] of Object.entries(body)) if (value !== undefined) out[key] = value;
  return out;
}

function assistant(parts: readonly Part[], meta: JsonObject, typed: boolean): Record<string, unknown> {
  const reasoning: string[] = [];
  const calls: Part[] = [];
  const content: Part[] = [];
  for (const part of parts) {
    if (part.type === 'reasoning' && !reasoningInContent(part, typed)) {
      if (part.text !== '' || part.data === undefined) reasoning.push(part.text);
    } else if (part.type === 'tool-call' && !isTypedCall(part, typed)) calls.push(part);
    else if (part.type === 'opaque' && partMeta(part)?.['slot'] === 'tool_calls') calls.push(part);
    else content.push(part);
  }
  const shape =
    metaString(meta, 'content') ?? (calls.length > 0 && content.length === 0 ? 'null' : undefined);
  const body: Record<string, unknown> = { content: encodeContent(content, { shape, typed }) };
  if (reasoning.length > 0)
    body[metaString(meta, 'reasoningKey') ?? 'reasoning_content'] = reasoning.join('\n');
  const first = calls[0];
  if (calls.length === 1 && first !== undefined && isLegacyCall(first)) {
    body['function_call'] = encodeFunctionCall(first as ToolCallPart);
  } else if (calls.length > 0) body['tool_calls'] = calls.map(encodeToolCall);
  return wireMessage(meta, 'assistant', body);
}

function reasoningInContent(part: Part, typed: boolean): boolean {
  const field = metaString(partMeta(part), 'field');
  return field === 'value' || (field === undefined && partMeta(part) === undefined && typed);
}

function reasoningToText(part: Part): Part {
  if (part.type !== 'reasoning' || (part.text === '' && part.data !== undefined)) return part;
  return reasoningTextPart(part.text);
}

/**
 * A result as the wire can say it: a failure carries the error marker in its text (there is no error flag), and
 * an image from elsewhere becomes a placeholder (tool messages hold only text).
 */
function portable(part: ToolResultPart): ToolResultPart {
  const foreign = partMeta(part) === undefined;
  const content = foreign
    ? part.content.map((item) =>
        item.type === 'image' && item.meta?.['openai'] === undefined
          ? { type: 'text' as const, text: '[image omitted]' }
          : item,
      )
    : part.content;
  if (part.isError !== true) return content === part.content ? part : { ...part, content };
  return { ...part, content: markErrorContent(content) };
}

function encodeResults(decoded: readonly ToolResultPart[], meta: JsonObject, typed: boolean): unknown[] {
  const results = decoded.map(portable);
  const first = results[0];
  if (first === undefined) return [];
  const encoding = contentEncoding(meta, typed);
  if (metaFlag(meta, 'ids')) {
    return [
      wireMessage(meta, 'tool', {
        content: encodeContent(first.content, encoding),
        ...nameOf(first),
        tool_call_ids: results.map((part) => part.callId),
      }),
    ];
  }
  if (metaFlag(meta, 'split')) {
    const texts = results.map((part) =>
      part.content.map((item) => (item.type === 'text' ? item.text : '')).join(''),
    );
    return [wireMessage(meta, 'tool', { content: [{ type: 'text', value: joinJsonArray(texts) }] })];
  }
  return results.map((part) => {
    const own = partMeta(part);
    const content = encodeContent(part.content, encoding);
    if (metaFlag(own, 'legacy')) {
      return wireMessage(meta, 'function', { ...nameOf(part), content });
    }
    const noId = own === undefined ? typed : metaFlag(own, 'noId');
    return wireMessage(meta, 'tool', {
      ...(noId ? {} : { tool_call_id: part.callId }),
      ...nameOf(part),
      content,
    });
  });
}

/** The `name` of a result message, written when the wire had one. */
function nameOf(part: ToolResultPart): { name?: string } {
  return part.name !== undefined && metaFlag(partMeta(part), 'name') ? { name: part.name } : {};
}
