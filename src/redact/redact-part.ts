import { appendAll } from '../model/arrays.js';
import type { JsonObject } from '../model/json.js';
import type {
  ImagePart,
  OpaquePart,
  Part,
  PartMeta,
  TextPart,
  ToolResultContentPart,
} from '../model/part.js';
import type { LocatedFinding, PathSegment, RedactedValue } from './redact-json.js';
import { redactJsonText, redactJsonValue } from './redact-json.js';
import type { Redactor } from './redactor.js';

/** Collects the findings of one part while it is rebuilt. */
class Found {
  readonly list: LocatedFinding[] = [];
  readonly redactor: Redactor;

  constructor(redactor: Redactor) {
    this.redactor = redactor;
  }

  text(text: string, path: readonly PathSegment[]): string {
    const result = this.redactor.text(text);
    for (const finding of result.findings) this.list.push({ ...finding, path });
    return result.text;
  }

  take<TValue>(result: RedactedValue<TValue>): TValue {
    appendAll(this.list, result.findings);
    return result.value;
  }
}

/**
 * Redacts every string of a part: text, reasoning text, tool-call arguments (JSON-aware), tool-result content,
 * image URLs (signed query strings), opaque values and codec-owned part meta. Base64 image data, reasoning
 * signatures and encrypted reasoning data are provider payloads, not text, and stay as they are: a reasoning
 * part whose text was redacted keeps a signature that no longer matches it, so such a transcript is for
 * reading, summarising and export, not for replaying to the provider that signed it. Returns the same part
 * when nothing was found.
 */
export function redactPart(
  part: Part,
  redactor: Redactor,
  path: readonly PathSegment[],
): RedactedValue<Part> {
  const found = new Found(redactor);
  const next = withMeta(partBody(part, path, found), part.meta, path, found);
  return found.list.length === 0 ? { value: part, findings: [] } : { value: next, findings: found.list };
}

/** Redacts codec-owned metadata (part meta, `meta.codec[format]`): every string leaf, key-aware. */
export function redactMeta(
  meta: PartMeta | JsonObject,
  redactor: Redactor,
  path: readonly PathSegment[],
): RedactedValue<JsonObject> {
  const result = redactJsonValue(meta, redactor, path);
  return { value: result.value as JsonObject, findings: result.findings };
}

function withMeta<TPart extends { readonly meta?: PartMeta }>(
  part: TPart,
  meta: PartMeta | undefined,
  path: readonly PathSegment[],
  found: Found,
): TPart {
  if (meta === undefined) return part;
  const next = found.take(redactMeta(meta, found.redactor, [...path, 'meta']));
  return next === meta ? part : { ...part, meta: next };
}

function partBody(part: Part, path: readonly PathSegment[], found: Found): Part {
  switch (part.type) {
    case 'text':
      return textPart(part, path, found);
    case 'reasoning': {
      const text = found.text(part.text, [...path, 'text']);
      return text === part.text ? part : { ...part, text };
    }
    case 'tool-call': {
      const args = found.take(redactJsonText(part.arguments, found.redactor, [...path, 'arguments']));
      return args === part.arguments ? part : { ...part, arguments: args };
    }
    case 'tool-result': {
      let changed = false;
      const content = part.content.map((item, index) => {
        const itemPath = [...path, 'content', index];
        const next = withMeta(contentBody(item, itemPath, found), item.meta, itemPath, found);
        changed ||= next !== item;
        return next;
      });
      return changed ? { ...part, content } : part;
    }
    case 'image':
      return imagePart(part, path, found);
    case 'opaque':
      return opaquePart(part, path, found);
  }
}

function contentBody(
  part: ToolResultContentPart,
  path: readonly PathSegment[],
  found: Found,
): ToolResultContentPart {
  switch (part.type) {
    case 'text':
      return textPart(part, path, found);
    case 'image':
      return imagePart(part, path, found);
    case 'opaque':
      return opaquePart(part, path, found);
  }
}

function textPart(part: TextPart, path: readonly PathSegment[], found: Found): TextPart {
  const text = found.text(part.text, [...path, 'text']);
  return text === part.text ? part : { ...part, text };
}

function imagePart(part: ImagePart, path: readonly PathSegment[], found: Found): ImagePart {
  if (part.source.kind !== 'url' || part.source.url.startsWith('data:')) return part;
  const url = found.text(part.source.url, [...path, 'source', 'url']);
  return url === part.source.url ? part : { ...part, source: { ...part.source, url } };
}

function opaquePart(part: OpaquePart, path: readonly PathSegment[], found: Found): OpaquePart {
  const value = found.take(redactJsonValue(part.value, found.redactor, [...path, 'value']));
  return value === part.value ? part : { ...part, value };
}
