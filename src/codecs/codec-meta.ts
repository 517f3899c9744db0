import type { FormatName } from '../model/format.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message, MessageMeta } from '../model/message.js';
import type { Part, PartMeta } from '../model/part.js';
import type { Transcript } from '../model/transcript.js';

/**
 * How a codec keeps its own data: under its format name in part meta (`meta[format]`) and in message and
 * transcript codec meta (`meta.codec[format]`), so that no codec mistakes another's unmodelled keys for its own
 * (an OpenAI part's unknown keys must not leak into an Anthropic block). Every codec's meta helpers are these,
 * bound to its format by {@link codecMeta}.
 */
export interface CodecMeta {
  /** The codec's data of a part, when it has some. */
  readonly partMeta: (part: { readonly meta?: PartMeta }) => JsonObject | undefined;
  /** Spreadable part meta holding `fields` under the codec's key (nothing when every field is undefined). */
  readonly withPartMeta: (fields: Record<string, JsonValue | undefined>) => { meta?: PartMeta };
  /** Message meta with the wire origin and the codec's fields (undefined fields dropped). */
  readonly decodedMessageMeta: (
    wire: unknown,
    parts: readonly Part[],
    fields: Record<string, JsonValue | undefined>,
  ) => MessageMeta;
  /** A decoded transcript with its origin and the envelope fields the encoder needs (undefined ones dropped). */
  readonly decodedTranscript: (
    wire: unknown,
    messages: readonly Message[],
    fields: Record<string, JsonValue | undefined>,
  ) => Transcript;
  /** True when the message still holds the very parts decoded from its wire value in this format. */
  readonly hasIntactOrigin: (message: Message) => boolean;
}

/** The meta helpers of the codec of `format`. */
export function codecMeta(format: FormatName): CodecMeta {
  return {
    partMeta: (part) => metaObject(part.meta, format),
    withPartMeta: (fields) => {
      const kept = definedFields(fields);
      return kept === undefined ? {} : { meta: { [format]: kept } };
    },
    decodedMessageMeta: (wire, parts, fields) => {
      const kept = definedFields(fields);
      return {
        origin: { format, wire, parts },
        ...(kept === undefined ? {} : { codec: { [format]: kept } }),
      };
    },
    decodedTranscript: (wire, messages, fields) => {
      const kept = definedFields(fields);
      return {
        messages,
        meta: {
          origin: { format, wire, messages },
          format,
          ...(kept === undefined ? {} : { codec: { [format]: kept } }),
        },
      };
    },
    hasIntactOrigin: (message) => hasIntactOrigin(message, format),
  };
}

/** True when the message still holds the very parts decoded from its wire value in `format`. */
export function hasIntactOrigin(message: Message, format: FormatName): boolean {
  const origin = message.meta?.origin;
  return origin !== undefined && origin.format === format && origin.parts === message.parts;
}

/** The object without its `undefined` members, or `undefined` when nothing is left. */
export function definedFields(fields: Record<string, JsonValue | undefined>): JsonObject | undefined {
  let out: Record<string, JsonValue> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out ??= {};
    out[key] = value;
  }
  return out;
}

/** A string member of codec meta (or of any JSON object). */
export function metaString(meta: JsonObject | undefined, key: string): string | undefined {
  const value = meta?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** An object member of codec meta (or of any JSON object). */
export function metaObject(meta: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = meta?.[key];
  return isJsonObject(value) ? value : undefined;
}
