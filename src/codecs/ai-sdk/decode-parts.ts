import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ImageSource, OpaquePart, Part, ToolResultContentPart } from '../../model/part.js';
import type { Role } from '../../model/role.js';
import type { DecodeIssue } from '../codec.js';
import { decodeOutput } from './tool-output.js';
import { AI, wireMeta } from './wire-meta.js';

/** Part types each role may hold (AI SDK v6 `ModelMessage`). */
const ALLOWED: Readonly<Record<Role, readonly string[]>> = {
  system: [],
  user: ['text', 'image', 'file'],
  assistant: ['text', 'file', 'reasoning', 'tool-call', 'tool-result', 'tool-approval-request'],
  tool: ['tool-result', 'tool-approval-response'],
};

/** A wire part carried as it is: kept on encode because it came from this codec. */
export function wirePart(value: unknown, kind?: string): OpaquePart {
  const type = isJsonObject(value) && typeof value['type'] === 'string' ? value['type'] : 'unknown';
  return {
    type: 'opaque',
    kind: kind ?? type,
    value: (value ?? null) as JsonValue,
    meta: { [AI]: { wire: true } },
  };
}

/** Where image bytes are: URL strings (`http(s):`, `data:`) stay URLs, other strings are base64. */
function sourceOf(data: string, mediaType: unknown): ImageSource {
  const media = typeof mediaType === 'string' ? { mediaType } : {};
  return /^(https?:|data:)/i.test(data)
    ? { kind: 'url', url: data, ...media }
    : { kind: 'base64', data, ...media };
}

/**
 * The model part of one AI SDK content part. Provider-executed tool calls and the tool results an assistant
 * message carries, approval requests/responses, non-image files and anything malformed stay opaque (written
 * back as they are); malformed parts are reported.
 */
export function decodePart(
  wire: unknown,
  role: Role,
  path: readonly (string | number)[],
  issues: DecodeIssue[],
): Part {
  const part = isJsonObject(wire) ? readPart(wire, role) : undefined;
  if (part !== undefined) return part;
  const type = isJsonObject(wire) ? wire['type'] : undefined;
  const allowed = typeof type === 'string' && ALLOWED[role].includes(type);
  if (!allowed || !isCarried(type)) {
    issues.push({
      code: allowed ? 'invalid-shape' : 'unknown-block',
      severity: 'warning',
      message: `a ${role} message has ${allowed ? 'a malformed' : 'an unexpected'} ${JSON.stringify(type ?? null)} part; it is carried as is`,
      path,
    });
  }
  return wirePart(wire);
}

function isCarried(type: string): boolean {
  return (
    type === 'tool-approval-request' ||
    type === 'tool-approval-response' ||
    type === 'file' ||
    type === 'tool-result' ||
    type === 'tool-call'
  );
}

function readPart(wire: JsonObject, role: Role): Part | undefined {
  const type = wire['type'];
  if (typeof type !== 'string' || !ALLOWED[role].includes(type)) return undefined;
  switch (type) {
    case 'text':
      return typeof wire['text'] === 'string'
        ? { type: 'text', text: wire['text'], ...wireMeta(wire, ['type', 'text']) }
        : undefined;
    case 'reasoning':
      return readReasoning(wire);
    case 'image':
      return typeof wire['image'] === 'string' &&
        (wire['mediaType'] === undefined || typeof wire['mediaType'] === 'string')
        ? {
            type: 'image',
            source: sourceOf(wire['image'], wire['mediaType']),
            ...wireMeta(wire, ['type', 'image', 'mediaType']),
          }
        : undefined;
    case 'file':
      return readFile(wire);
    case 'tool-call':
      return readToolCall(wire);
    case 'tool-result':
      return role === 'tool' ? readToolResult(wire) : undefined;
    default:
      return undefined;
  }
}

function readReasoning(wire: JsonObject): Part | undefined {
  if (typeof wire['text'] !== 'string') return undefined;
  const options = wire['providerOptions'];
  const anthropic = isJsonObject(options) ? options['anthropic'] : undefined;
  const signature = isJsonObject(anthropic) ? anthropic['signature'] : undefined;
  const data = isJsonObject(anthropic) ? anthropic['redactedData'] : undefined;
  return {
    type: 'reasoning',
    text: wire['text'],
    ...(typeof signature === 'string' ? { signature } : {}),
    ...(typeof data === 'string' ? { data } : {}),
    ...wireMeta(wire, ['type', 'text']),
  };
}

function readFile(wire: JsonObject): Part | undefined {
  const { data, mediaType } = wire;
  if (typeof data !== 'string' || typeof mediaType !== 'string' || !mediaType.startsWith('image/'))
    return undefined;
  return {
    type: 'image',
    source: sourceOf(data, mediaType),
    ...wireMeta(wire, ['type', 'data', 'mediaType'], { as: 'file' }),
  };
}

function readToolCall(wire: JsonObject): Part | undefined {
  const { toolCallId, toolName, input } = wire;
  if (typeof toolCallId !== 'string' || typeof toolName !== 'string' || input === undefined) return undefined;
  if (wire['providerExecuted'] === true) return undefined;
  return {
    type: 'tool-call',
    id: toolCallId,
    name: toolName,
    arguments: JSON.stringify(input),
    ...wireMeta(wire, ['type', 'toolCallId', 'toolName', 'input']),
  };
}

function readToolResult(wire: JsonObject): Part | undefined {
  const { toolCallId, toolName } = wire;
  if (typeof toolCallId !== 'string' || typeof toolName !== 'string') return undefined;
  const output = decodeOutput(wire['output'], decodeOutputItem);
  if (output === undefined) return undefined;
  const fields: JsonObject = output.meta === undefined ? {} : { output: output.meta };
  return {
    type: 'tool-result',
    callId: toolCallId,
    name: toolName,
    content: output.content,
    ...(output.isError === undefined ? {} : { isError: output.isError }),
    ...wireMeta(wire, ['type', 'toolCallId', 'toolName', 'output'], fields),
  };
}

/** One item of a `content` tool output: text and images are read, other items stay opaque. */
function decodeOutputItem(item: JsonObject): ToolResultContentPart {
  const type = item['type'];
  if (type === 'text' && typeof item['text'] === 'string') {
    return { type: 'text', text: item['text'], ...wireMeta(item, ['type', 'text']) };
  }
  if (
    (type === 'image-data' || type === 'media') &&
    typeof item['data'] === 'string' &&
    typeof item['mediaType'] === 'string'
  ) {
    if (type === 'image-data' || item['mediaType'].startsWith('image/')) {
      const fields: JsonObject = type === 'media' ? { as: 'media' } : {};
      const source: ImageSource = { kind: 'base64', data: item['data'], mediaType: item['mediaType'] };
      return { type: 'image', source, ...wireMeta(item, ['type', 'data', 'mediaType'], fields) };
    }
  }
  if (type === 'image-url' && typeof item['url'] === 'string') {
    return { type: 'image', source: { kind: 'url', url: item['url'] }, ...wireMeta(item, ['type', 'url']) };
  }
  return wirePart(item);
}
