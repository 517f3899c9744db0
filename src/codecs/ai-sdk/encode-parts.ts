import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type {
  ImagePart,
  Part,
  ReasoningPart,
  ToolResultContentPart,
  ToolResultPart,
} from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { encodeOutput } from './tool-output.js';
import { ownMeta, withWireMeta } from './wire-meta.js';

/** The tool name of a call id, for results that do not carry one. */
export type CallNameLookup = (callId: string) => string | undefined;

/** True for an opaque part this codec decoded (written back as it was); opaque parts from elsewhere are dropped. */
function isWirePart(part: Part | ToolResultContentPart): boolean {
  return part.type === 'opaque' && ownMeta(part.meta)?.['wire'] === true;
}

function imageData(part: ImagePart): string {
  return part.source.kind === 'base64' ? part.source.data : part.source.url;
}

/** An image as the user part it was (`image`, or `file` when it was one). */
function encodeImage(part: ImagePart, asFile: boolean): JsonObject {
  const own = ownMeta(part.meta);
  const mediaType = part.source.mediaType;
  if (asFile || own?.['as'] === 'file') {
    return withWireMeta({ type: 'file', data: imageData(part), mediaType: mediaType ?? 'image/*' }, own);
  }
  return withWireMeta(
    { type: 'image', image: imageData(part), ...(mediaType === undefined ? {} : { mediaType }) },
    own,
  );
}

/** Reasoning with its signature/encrypted data in `providerOptions.anthropic`, where the Anthropic provider reads them. */
function encodeReasoning(part: ReasoningPart): JsonObject {
  const own = ownMeta(part.meta);
  const kept = own?.['providerOptions'];
  if (kept !== undefined && !isJsonObject(kept))
    return withWireMeta({ type: 'reasoning', text: part.text }, own);
  const options: Record<string, JsonValue | undefined> = kept === undefined ? {} : { ...kept };
  const before = options['anthropic'];
  const anthropic: Record<string, JsonValue | undefined> = isJsonObject(before) ? { ...before } : {};
  if (part.signature === undefined) delete anthropic['signature'];
  else anthropic['signature'] = part.signature;
  if (part.data === undefined) delete anthropic['redactedData'];
  else anthropic['redactedData'] = part.data;
  if (isJsonObject(before) || Object.keys(anthropic).length > 0) options['anthropic'] = anthropic;
  const providerOptions =
    kept !== undefined || Object.keys(options).length > 0 ? { providerOptions: options } : {};
  const extra = own?.['extra'];
  const known = { type: 'reasoning', text: part.text, ...providerOptions };
  return isJsonObject(extra) ? { ...known, ...extra } : known;
}

/** One part of a `user` message; parts a user message cannot hold are left out. */
export function encodeUserPart(part: Part): JsonValue | undefined {
  if (part.type === 'text') return withWireMeta({ type: 'text', text: part.text }, ownMeta(part.meta));
  if (part.type === 'image') return encodeImage(part, false);
  return isWirePart(part) && part.type === 'opaque' ? part.value : undefined;
}

/** One part of an `assistant` message (images become `file` parts); tool results are left out. */
export function encodeAssistantPart(part: Part): JsonValue | undefined {
  switch (part.type) {
    case 'text':
      return withWireMeta({ type: 'text', text: part.text }, ownMeta(part.meta));
    case 'reasoning':
      return encodeReasoning(part);
    case 'tool-call':
      return withWireMeta(
        { type: 'tool-call', toolCallId: part.id, toolName: part.name, input: parseInput(part.arguments) },
        ownMeta(part.meta),
      );
    case 'image':
      return encodeImage(part, true);
    case 'opaque':
      return isWirePart(part) ? part.value : undefined;
    case 'tool-result':
      return undefined;
  }
}

/** One tool result of a `tool` message. */
export function encodeToolResult(part: ToolResultPart, nameOf: CallNameLookup): JsonObject {
  const own = ownMeta(part.meta);
  const output = encodeOutput(
    part,
    isJsonObject(own?.['output']) ? own['output'] : undefined,
    encodeOutputItem,
  );
  const toolName = part.name ?? nameOf(part.callId) ?? '';
  return withWireMeta({ type: 'tool-result', toolCallId: part.callId, toolName, output }, own);
}

function encodeOutputItem(item: ToolResultContentPart): JsonValue | undefined {
  const own = ownMeta(item.meta);
  switch (item.type) {
    case 'text':
      return withWireMeta({ type: 'text', text: item.text }, own);
    case 'image':
      if (item.source.kind === 'url') return withWireMeta({ type: 'image-url', url: item.source.url }, own);
      return withWireMeta(
        {
          type: own?.['as'] === 'media' ? 'media' : 'image-data',
          data: item.source.data,
          mediaType: item.source.mediaType ?? 'image/*',
        },
        own,
      );
    case 'opaque':
      return isWirePart(item) ? item.value : undefined;
  }
}

/** Tool input from arguments text: the parsed JSON, or the text itself when it is not JSON. */
function parseInput(args: string): JsonValue {
  try {
    return parseNestedJson(args) as JsonValue;
  } catch {
    return args;
  }
}
