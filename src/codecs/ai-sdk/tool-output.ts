import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ToolResultContentPart, ToolResultPart } from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { AI, extraOf } from './wire-meta.js';

/** Output types of AI SDK tool results. */
const OUTPUT_TYPES = ['text', 'json', 'error-text', 'error-json', 'execution-denied', 'content'] as const;
type OutputType = (typeof OUTPUT_TYPES)[number];

const ERROR_TYPES: ReadonlySet<OutputType> = new Set(['error-text', 'error-json', 'execution-denied']);

/**
 * The output type written for a result when nothing says otherwise: errors as `error-text`, one text as
 * `text`, anything else (several parts, images) as `content`.
 */
function defaultType(part: Pick<ToolResultPart, 'content' | 'isError'>): OutputType {
  const textOnly = part.content.every((item) => item.type === 'text');
  if (part.isError === true && textOnly) return 'error-text';
  return part.content.length === 1 && part.content[0]?.type === 'text' && part.content[0].meta === undefined
    ? 'text'
    : 'content';
}

function textOf(content: readonly ToolResultContentPart[]): string {
  return content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
}

/**
 * The content and error flag a tool output stands for, and the meta needed to write the same output back
 * (its type when the default would differ, its `providerOptions` and unknown keys). `undefined` for an output
 * this codec cannot read.
 */
export function decodeOutput(
  output: unknown,
  decodeItem: (item: JsonObject) => ToolResultContentPart,
): { content: ToolResultContentPart[]; isError?: true; meta?: JsonObject } | undefined {
  if (!isJsonObject(output) || !OUTPUT_TYPES.includes(output['type'] as OutputType)) return undefined;
  const type = output['type'] as OutputType;
  const value = output['value'];
  let content: ToolResultContentPart[];
  if (type === 'text' || type === 'error-text') {
    if (typeof value !== 'string') return undefined;
    content = [{ type: 'text', text: value }];
  } else if (type === 'json' || type === 'error-json') {
    if (value === undefined) return undefined;
    content = [{ type: 'text', text: JSON.stringify(value) }];
  } else if (type === 'execution-denied') {
    const reason = output['reason'];
    if (reason !== undefined && typeof reason !== 'string') return undefined;
    content = reason === undefined ? [] : [{ type: 'text', text: reason }];
  } else {
    if (!Array.isArray(value)) return undefined;
    content = value.map((item: JsonValue) =>
      isJsonObject(item)
        ? decodeItem(item)
        : { type: 'opaque', kind: 'unknown', value: item, meta: { [AI]: { wire: true } } },
    );
  }
  const isError = ERROR_TYPES.has(type) ? { isError: true as const } : {};
  const own: Record<string, JsonValue | undefined> = {};
  if (type !== defaultType({ content, ...isError })) own['type'] = type;
  if (output['providerOptions'] !== undefined) own['providerOptions'] = output['providerOptions'];
  const extra = extraOf(output, ['type', 'value', 'reason', 'providerOptions']);
  if (extra !== undefined) own['extra'] = extra;
  return { content, ...isError, ...(Object.keys(own).length === 0 ? {} : { meta: own }) };
}

/** The AI SDK output of a tool result: the kept type when it still fits, else the default one. */
export function encodeOutput(
  part: ToolResultPart,
  kept: JsonObject | undefined,
  encodeItem: (item: ToolResultContentPart) => JsonValue | undefined,
): JsonObject {
  const textOnly = part.content.every((item) => item.type === 'text');
  let type = (
    OUTPUT_TYPES.includes(kept?.['type'] as OutputType) ? kept?.['type'] : defaultType(part)
  ) as OutputType;
  if (!textOnly) type = 'content';
  else if (part.isError === true && type === 'text') type = 'error-text';
  else if (part.isError === true && type === 'json') type = 'error-json';
  else if (part.isError !== true && ERROR_TYPES.has(type)) type = type === 'error-json' ? 'json' : 'text';
  const text = textOf(part.content);
  let body: Record<string, JsonValue | undefined>;
  switch (type) {
    case 'json':
    case 'error-json': {
      const parsed = parseJson(text);
      body =
        parsed === undefined
          ? { type: type === 'json' ? 'text' : 'error-text', value: text }
          : { type, value: parsed };
      break;
    }
    case 'execution-denied':
      body = part.content.length === 0 ? { type } : { type, reason: text };
      break;
    case 'content':
      body = {
        type,
        value: part.content.flatMap((item) => {
          const wire = encodeItem(item);
          return wire === undefined ? [] : [wire];
        }),
      };
      break;
    case 'text':
    case 'error-text':
      body = { type, value: text };
      break;
  }
  if (kept?.['providerOptions'] !== undefined) body['providerOptions'] = kept['providerOptions'];
  const extra = kept?.['extra'];
  return isJsonObject(extra) ? { ...body, ...extra } : body;
}

function parseJson(text: string): JsonValue | undefined {
  try {
    return parseNestedJson(text) as JsonValue;
  } catch {
    return undefined;
  }
}
