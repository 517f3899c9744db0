import type { JsonObject, JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { ImagePart, Part, ToolResultContentPart } from '../model/part.js';

/** What a session log keeps of the messages and side data it is given. */
export interface WritePolicy {
  /**
   * `placeholder` replaces every base64 image (in messages and in tool results) by a short text naming its type
   * and size, so one screenshot does not add megabytes to every log; URL images are kept.
   * @default 'keep'
   */
  readonly images?: 'keep' | 'placeholder';
  /**
   * Which attachments (hook output, file snapshots, injected context) are written. They are side data the model
   * may never have seen and can hold sensitive context, so by default none is.
   * @default 'drop'
   */
  readonly attachments?: 'drop' | 'keep' | ((attachment: JsonValue) => boolean);
  /**
   * Keep the codec's wire data (`meta.codec` of messages, part `meta`): what re-encodes a message exactly in its
   * source format. Off by default: it repeats wire envelopes (Claude Code `toolUseResult`) the model never read.
   * @default false
   */
  readonly codecMeta?: boolean;
}

/** The `message` value of a message line: the model message without origin (and without codec data unless kept). */
export function messageForLog(
  message: Message,
  policy: WritePolicy,
): { readonly value: JsonObject; readonly imagesReplaced: number } {
  let imagesReplaced = 0;
  const replace = policy.images === 'placeholder';
  const keepCodec = policy.codecMeta === true;
  const partFor = (part: Part): Part => {
    if (part.type === 'image' && replace && part.source.kind === 'base64') {
      imagesReplaced++;
      return { type: 'text', text: imagePlaceholder(part) };
    }
    if (part.type === 'tool-result') {
      const content = part.content.map((inner): ToolResultContentPart => {
        const mapped = partFor(inner);
        return mapped as ToolResultContentPart;
      });
      return withoutMeta({ ...part, content }, keepCodec);
    }
    return withoutMeta(part, keepCodec);
  };
  const parts = message.parts.map(partFor);
  const meta: Record<string, JsonValue> = {};
  if (keepCodec && message.meta?.codec !== undefined) meta['codec'] = message.meta.codec as JsonObject;
  if (message.meta?.condense !== undefined) meta['condense'] = message.meta.condense;
  const value: Record<string, JsonValue> = { role: message.role, parts: parts as unknown as JsonValue };
  if (Object.keys(meta).length > 0) value['meta'] = meta;
  return { value, imagesReplaced };
}

function withoutMeta<T extends Part>(part: T, keep: boolean): T {
  if (keep || part.meta === undefined) return part;
  const { meta: _meta, ...rest } = part;
  return rest as T;
}

/** The text an omitted image becomes. */
export function imagePlaceholder(part: ImagePart): string {
  const source = part.source;
  const type = source.mediaType ?? 'image';
  if (source.kind !== 'base64') return `[image omitted: ${type}]`;
  const bytes = Math.floor((source.data.length * 3) / 4);
  return `[image omitted: ${type}, ${formatBytes(bytes)}]`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${(bytes / 1_000).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** True when the policy writes this attachment. */
export function keepsAttachment(policy: WritePolicy, attachment: JsonValue): boolean {
  const rule = policy.attachments ?? 'drop';
  if (rule === 'drop') return false;
  if (rule === 'keep') return true;
  return rule(attachment);
}
