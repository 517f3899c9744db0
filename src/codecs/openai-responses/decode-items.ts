import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { Role } from '../../model/role.js';
import type { DecodeIssue } from '../codec.js';
import { splitReasoningText } from '../portable/reasoning-text.js';
import { unmarkResult } from '../portable/tool-error.js';
import { decodeMessageContent, decodeOutput } from './decode-content.js';
import { itemKind } from './item-kinds.js';
import { extraKeys, withOwnMeta } from './meta.js';
import { decodeNativeCall, decodeNativeOutput } from './native-items.js';
import { reasoningText } from './reasoning.js';

/**
 * One message of the transcript model decoded from consecutive items: a user, system or tool message is one
 * item; an assistant message is a run of consecutive model items (reasoning, assistant messages, calls,
 * server-side tool items), so one model turn stays one message and its calls stay together.
 */
export interface DecodedUnit {
  readonly role: Role;
  readonly parts: Part[];
  /** Indexes (in the decoded list) of the items it holds, in order. */
  readonly items: number[];
  /** Message-level codec fields (see `encode-items.ts`). */
  readonly fields: Record<string, JsonValue>;
}

/** Options of {@link decodeItems}. */
export interface DecodeItemsOptions {
  /** Issue path of the item list. @default [] */
  readonly path?: readonly (string | number)[];
  /** Issue path of item `index` (e.g. a record's line in a rollout). @default [...path, index] */
  readonly itemPath?: (index: number) => readonly (string | number)[];
  /** True when item `index` must open a new message (a compaction boundary in a rollout). */
  readonly breakBefore?: (index: number) => boolean;
}

/** Decodes a Responses item list into message units. Never throws: what it cannot read is carried verbatim. */
export function decodeItems(
  items: readonly unknown[],
  issues: DecodeIssue[],
  options: DecodeItemsOptions = {},
): DecodedUnit[] {
  const pathOf = options.itemPath ?? ((index: number) => [...(options.path ?? []), index]);
  const units: DecodedUnit[] = [];
  let run: DecodedUnit | undefined;
  const assistant = (): DecodedUnit => {
    if (run === undefined) {
      run = { role: 'assistant', parts: [], items: [], fields: {} };
      units.push(run);
    }
    return run;
  };
  const single = (unit: DecodedUnit): void => {
    run = undefined;
    units.push(unit);
  };
  items.forEach((item, index) => {
    if (options.breakBefore?.(index) === true) run = undefined;
    if (!isJsonObject(item)) {
      issues.push({
        code: 'invalid-shape',
        severity: 'error',
        message: `item ${index} is not an object; it is carried verbatim`,
        path: pathOf(index),
      });
      single(unitOf('user', [opaque(item as JsonValue)], index, { invalid: true }));
      return;
    }
    const kind = itemKind(item);
    switch (kind) {
      case 'message': {
        const role = item['role'];
        if (role === 'assistant') {
          const target = assistant();
          const slot = target.items.length;
          target.items.push(index);
          const content = decodeMessageContent(item['content']);
          for (const part of content.parts) target.parts.push(tagSlot(thinkAsReasoning(part), slot));
          const envelopes = (target.fields['envelopes'] ?? {}) as Record<string, JsonValue>;
          envelopes[String(slot)] = messageEnvelope(item, content.shape);
          target.fields['envelopes'] = envelopes;
          return;
        }
        const known = role === 'user' || role === 'system' || role === 'developer';
        if (!known) {
          issues.push({
            code: 'unknown-role',
            severity: 'warning',
            message: `item ${index} has role ${JSON.stringify(role)}; it is read as a user message`,
            path: [...pathOf(index), 'role'],
          });
        }
        const content = decodeMessageContent(item['content']);
        single(
          unitOf(role === 'system' || role === 'developer' ? 'system' : 'user', content.parts, index, {
            envelope: messageEnvelope(item, content.shape),
          }),
        );
        return;
      }
      case 'function-call':
      case 'custom-call':
      case 'native-call':
      case 'reasoning':
      case 'opaque': {
        const target = assistant();
        target.items.push(index);
        target.parts.push(modelPart(item, kind));
        if (kind === 'opaque' && !KNOWN_OPAQUE.has(String(item['type']))) {
          issues.push({
            code: 'unknown-block',
            severity: 'warning',
            message: `item ${index} has type ${JSON.stringify(item['type'] ?? null)}, which condense carries without reading it`,
            path: [...pathOf(index), 'type'],
          });
        }
        return;
      }
      case 'function-output':
      case 'custom-output':
      case 'native-output':
        single(unitOf('tool', [outputPart(item, kind)], index, {}));
        return;
    }
  });
  return units;
}

/** Item types carried as opaque parts without a warning: server-side tools, compaction, Codex's own items. */
const KNOWN_OPAQUE: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'item_reference',
  'compaction',
  'compaction_summary',
  'ghost_snapshot',
  'tool_search_call',
  'tool_search_output',
  'shell_call_output',
  'shell_call',
  'program',
  'program_output',
  'local_shell_call',
  'computer_call',
]);

function unitOf(role: Role, parts: Part[], index: number, fields: Record<string, JsonValue>): DecodedUnit {
  return { role, parts, items: [index], fields };
}

/** A message item's keys other than its content, and how its content was written. */
function messageEnvelope(item: JsonObject, shape: string): JsonObject {
  return { keys: Object.keys(item), extra: extraKeys(item, ['content']) ?? {}, shape };
}

function tagSlot(part: Part, slot: number): Part {
  const own = part.meta?.['openai-responses'];
  const base = isJsonObject(own) ? own : {};
  return { ...part, meta: { ...part.meta, 'openai-responses': { ...base, slot } } };
}

/** A whole item carried verbatim (`whole` tells it from another format's opaque parts on encode). */
function opaque(value: JsonValue): Part {
  const kind = isJsonObject(value) && typeof value['type'] === 'string' ? value['type'] : 'item';
  return { type: 'opaque', kind, value, ...withOwnMeta({ whole: true }) };
}

function modelPart(
  item: JsonObject,
  kind: 'function-call' | 'custom-call' | 'native-call' | 'reasoning' | 'opaque',
): Part {
  switch (kind) {
    case 'function-call':
      return functionCall(item);
    case 'custom-call':
      return customCall(item);
    case 'native-call':
      return decodeNativeCall(item);
    case 'reasoning':
      return reasoning(item);
    case 'opaque':
      return opaque(item);
  }
}

function functionCall(item: JsonObject): ToolCallPart {
  const args = item['arguments'];
  return callPart(item, typeof args === 'string' ? args : JSON.stringify(args === undefined ? {} : args), {
    keys: Object.keys(item),
    extra: extraKeys(item, ['type', 'call_id', 'name', 'arguments']),
    // Arguments that were not a string are written back as the value they were (or left out).
    rawArguments: typeof args === 'string' ? undefined : args === undefined ? 'absent' : true,
  });
}

/**
 * A custom tool call's free-form input is shown to condense as `{"input": text}`, so every transform and every
 * other format sees ordinary JSON arguments; the text goes back as `input` on encode.
 */
function customCall(item: JsonObject): ToolCallPart {
  const input = item['input'];
  return callPart(
    item,
    JSON.stringify({ input: typeof input === 'string' ? input : JSON.stringify(input ?? null) }),
    {
      t: 'custom_tool_call',
      keys: Object.keys(item),
      extra: extraKeys(item, ['type', 'call_id', 'name', 'input']),
    },
  );
}

/** A call item as a tool-call part: `args` as condense shows them, `fields` what encoding needs back. */
function callPart(
  item: JsonObject,
  args: string,
  fields: Record<string, JsonValue | undefined>,
): ToolCallPart {
  return {
    type: 'tool-call',
    id: item['call_id'] as string,
    name: typeof item['name'] === 'string' ? item['name'] : '',
    arguments: args,
    ...withOwnMeta(fields),
  };
}

function reasoning(item: JsonObject): ReasoningPart {
  const data = item['encrypted_content'];
  return {
    type: 'reasoning',
    text: reasoningText(item),
    ...(typeof data === 'string' ? { data } : {}),
    ...withOwnMeta({ item }),
  };
}

function outputPart(
  item: JsonObject,
  kind: 'function-output' | 'custom-output' | 'native-output',
): ToolResultPart {
  if (kind === 'native-output') return decodeNativeOutput(item);
  const decoded = decodeOutput(item['output']);
  const name = item['name'];
  // Output items have no error flag: a failure written by another format carries the portable marker.
  return unmarkResult({
    type: 'tool-result',
    callId: item['call_id'] as string,
    ...(typeof name === 'string' ? { name } : {}),
    content: decoded.content,
    ...(decoded.isError === true ? { isError: true } : {}),
    ...withOwnMeta({
      t: kind === 'custom-output' ? 'custom_tool_call_output' : undefined,
      keys: Object.keys(item),
      shape: decoded.shape,
      outputExtra: decoded.extra,
      extra: extraKeys(item, ['type', 'call_id', 'output', 'name']),
      name: typeof name === 'string' ? true : undefined,
    }),
  });
}

/**
 * Assistant text that is nothing but reasoning in `<think>` tags (how reasoning from another format is written:
 * the API takes back only its own reasoning items) reads back as reasoning; it is written as the same text.
 */
function thinkAsReasoning(part: Part): Part {
  if (part.type !== 'text') return part;
  const split = splitReasoningText(part.text);
  return split === undefined || split.rest !== undefined
    ? part
    : { type: 'reasoning', text: split.reasoning };
}
