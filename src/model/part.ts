import type { JsonObject, JsonValue } from './json.js';

/**
 * Codec-owned data a part needs to re-encode exactly (unknown wire keys, `cache_control`, block order…).
 * Shared code copies it along and never reads it.
 */
export type PartMeta = JsonObject;

/** Plain text the model reads or wrote. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly meta?: PartMeta;
}

/** Where an image's bytes are. */
export type ImageSource =
  | { readonly kind: 'base64'; readonly data: string; readonly mediaType?: string }
  | { readonly kind: 'url'; readonly url: string; readonly mediaType?: string };

/** An image shown to the model. Token cost is charged per image, never by the size of its payload. */
export interface ImagePart {
  readonly type: 'image';
  readonly source: ImageSource;
  readonly meta?: PartMeta;
}

/** A tool invocation by the assistant. `arguments` is JSON text, kept as the model produced it. */
export interface ToolCallPart {
  readonly type: 'tool-call';
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly meta?: PartMeta;
}

/** What a tool result may contain. */
export type ToolResultContentPart = TextPart | ImagePart | OpaquePart;

/** The outcome of one tool call, matched to it by `callId`. */
export interface ToolResultPart {
  readonly type: 'tool-result';
  readonly callId: string;
  /** Tool name when the wire format carries it (OpenAI legacy `function`, AI SDK). */
  readonly name?: string;
  readonly content: readonly ToolResultContentPart[];
  readonly isError?: boolean;
  readonly meta?: PartMeta;
}

/** Model reasoning (`thinking`, `<think>`, `reasoning_content`). */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  /** Provider signature that must travel back with the reasoning (Anthropic `thinking.signature`). */
  readonly signature?: string;
  /** Provider-encrypted reasoning passed back verbatim (Anthropic `redacted_thinking.data`); `text` is then empty. */
  readonly data?: string;
  readonly meta?: PartMeta;
}

/** Anything a codec must carry but condense does not understand (server tool blocks, documents…). */
export interface OpaquePart {
  readonly type: 'opaque';
  /** The wire's own name for the block, for display and statistics. */
  readonly kind: string;
  readonly value: JsonValue;
  readonly meta?: PartMeta;
}

/** One piece of a message: a discriminated union on `type`. */
export type Part = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart | OpaquePart;
