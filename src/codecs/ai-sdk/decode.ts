import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { isRole } from '../../model/role.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import { decodePart, wirePart } from './decode-parts.js';
import { AI, extraOf } from './wire-meta.js';

/** Kind of the opaque part that carries a message the codec could not read, written back as it was. */
export const RAW_MESSAGE_KIND = 'ai-sdk-message';

/**
 * Decodes AI SDK v6 `ModelMessage[]`: a bare array, or an object whose `messages` holds it (other keys are kept
 * in the transcript's codec meta). String content becomes one text part (remembered, so it is written back as a
 * string); `providerOptions` and unknown keys of messages and parts are kept in meta; an Anthropic reasoning
 * signature in `providerOptions.anthropic` also fills the part's `signature`/`data`. Tool outputs become
 * tool-result content (`json` as its JSON text, `error-*` and `execution-denied` with `isError`). Never throws.
 */
export function decodeAiSdk(wire: unknown): DecodeResult<Transcript> {
  const issues: DecodeIssue[] = [];
  const bare = Array.isArray(wire);
  const list = bare
    ? wire
    : isJsonObject(wire) && Array.isArray(wire['messages'])
      ? wire['messages']
      : undefined;
  if (list === undefined) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: 'expected ModelMessage[] or { "messages": ModelMessage[] }',
      path: [],
    });
    return {
      value: {
        messages: [],
        meta: { format: 'ai-sdk', codec: { [AI]: { entry: (wire ?? null) as JsonValue } } },
      },
      issues,
    };
  }
  const prefix = bare ? [] : ['messages'];
  const messages = (list as readonly unknown[]).map((item, index) =>
    decodeMessage(item, [...prefix, index], issues),
  );
  const codec: Record<string, JsonValue | undefined> = {};
  if (bare) codec['bare'] = true;
  else {
    const fields: Record<string, JsonValue | undefined> = {};
    for (const [key, value] of Object.entries(wire as JsonObject))
      fields[key] = key === 'messages' ? null : value;
    codec['fields'] = fields;
  }
  return {
    value: {
      messages,
      meta: { format: 'ai-sdk', origin: { format: 'ai-sdk', wire, messages }, codec: { [AI]: codec } },
    },
    issues,
  };
}

function decodeMessage(wire: unknown, path: (string | number)[], issues: DecodeIssue[]): Message {
  const role = isJsonObject(wire) ? wire['role'] : undefined;
  const content = isJsonObject(wire) ? wire['content'] : undefined;
  const valid =
    isRole(role) && (typeof content === 'string' || (Array.isArray(content) && role !== 'system'));
  if (!isJsonObject(wire) || !valid || (role === 'tool' && !Array.isArray(content))) {
    issues.push({
      code: isRole(role) || role === undefined ? 'invalid-shape' : 'unknown-role',
      severity: 'error',
      message:
        'this is not a ModelMessage (role system|user|assistant|tool with string or part-array content); it is kept as is',
      path,
    });
    const parts: Part[] = [wirePart(wire, RAW_MESSAGE_KIND)];
    return { role: isRole(role) ? role : 'user', parts, meta: { origin: { format: 'ai-sdk', wire, parts } } };
  }
  const parts: Part[] =
    typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : (content as readonly unknown[]).map((item, index) =>
          decodePart(item, role, [...path, 'content', index], issues),
        );
  const own: Record<string, JsonValue | undefined> = {};
  if (typeof content === 'string' && role !== 'system') own['contentString'] = true;
  if (wire['providerOptions'] !== undefined) own['providerOptions'] = wire['providerOptions'];
  const extra = extraOf(wire, ['role', 'content', 'providerOptions']);
  if (extra !== undefined) own['extra'] = extra;
  return {
    role,
    parts,
    meta: {
      origin: { format: 'ai-sdk', wire, parts },
      ...(Object.keys(own).length === 0 ? {} : { codec: { [AI]: own } }),
    },
  };
}
