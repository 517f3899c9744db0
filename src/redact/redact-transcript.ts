import { appendAll } from '../model/arrays.js';
import type { FormatName } from '../model/format.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import { withParts } from '../model/message-helpers.js';
import type { Part } from '../model/part.js';
import type { Transcript, TranscriptMeta } from '../model/transcript.js';
import type { SecretKind } from './kinds.js';
import type { RedactOptions } from './options.js';
import type { LocatedFinding, PathSegment } from './redact-json.js';
import { redactMeta, redactPart } from './redact-part.js';
import { createRedactor, type Redactor } from './redactor.js';

/**
 * A secret found in a transcript: the message (absent for transcript-level metadata), the path of the string
 * inside it (`['parts', 2, 'content', 0, 'text']`; for tool-call arguments the path goes on inside the parsed
 * JSON: `['parts', 1, 'arguments', 'env', 'TOKEN']`; codec metadata: `['meta', 'codec', 'claude-code', …]`),
 * and offsets in that string.
 */
export interface TranscriptFinding {
  readonly kind: SecretKind;
  readonly message?: number;
  readonly path: readonly PathSegment[];
  readonly start: number;
  readonly end: number;
}

/** A redacted transcript and what was masked in it. */
export interface RedactTranscriptResult {
  readonly transcript: Transcript;
  readonly findings: readonly TranscriptFinding[];
}

/**
 * Masks every secret in a transcript: message parts of every kind, tool-call arguments (JSON stays valid),
 * codec envelope data in message and transcript `meta.codec` (Claude Code `toolUseResult` and the like; condense's
 * own `meta.condense` markers are not walked). Pure:
 * the input is never mutated; messages without findings are returned as the same objects, so their origin is
 * kept and they re-encode byte-identically; changed messages lose their origin and are re-encoded from parts.
 */
export function redactTranscript(
  transcript: Transcript,
  options: RedactOptions = {},
): RedactTranscriptResult {
  return redactTranscriptWith(transcript, createRedactor(options));
}

/** {@link redactTranscript} with a redactor built once for many transcripts. */
export function redactTranscriptWith(transcript: Transcript, redactor: Redactor): RedactTranscriptResult {
  const findings: TranscriptFinding[] = [];
  let messages: Message[] | undefined;
  transcript.messages.forEach((message, index) => {
    const result = redactMessage(message, redactor);
    if (result.findings.length === 0) return;
    for (const finding of result.findings) findings.push({ ...finding, message: index });
    messages ??= [...transcript.messages];
    messages[index] = result.message;
  });
  const meta = redactTranscriptMeta(transcript.meta, redactor);
  appendAll(findings, meta.findings);
  if (messages === undefined && meta.findings.length === 0) return { transcript, findings: [] };
  const next: Transcript = {
    messages: messages ?? [...transcript.messages],
    ...(meta.value === undefined ? {} : { meta: meta.value }),
  };
  return { transcript: next, findings };
}

function redactMessage(
  message: Message,
  redactor: Redactor,
): { message: Message; findings: LocatedFinding[] } {
  const findings: LocatedFinding[] = [];
  let parts: Part[] | undefined;
  message.parts.forEach((part, index) => {
    const result = redactPart(part, redactor, ['parts', index]);
    if (result.findings.length === 0) return;
    appendAll(findings, result.findings);
    parts ??= [...message.parts];
    parts[index] = result.value;
  });
  const codec = redactCodecMeta(message.meta?.codec, redactor);
  appendAll(findings, codec.findings);
  if (findings.length === 0) return { message, findings };
  // A fresh parts array retires the origin even when only the codec metadata changed.
  const rebuilt = withParts(message, parts ?? [...message.parts]);
  if (codec.findings.length === 0 || codec.value === undefined) return { message: rebuilt, findings };
  return { message: { ...rebuilt, meta: { ...rebuilt.meta, codec: codec.value } }, findings };
}

type CodecMeta = Readonly<Partial<Record<FormatName, JsonObject>>>;

function redactCodecMeta(
  codec: CodecMeta | undefined,
  redactor: Redactor,
): { value: CodecMeta | undefined; findings: LocatedFinding[] } {
  if (codec === undefined) return { value: codec, findings: [] };
  const findings: LocatedFinding[] = [];
  let next: Partial<Record<FormatName, JsonObject>> | undefined;
  for (const [format, value] of Object.entries(codec) as [FormatName, JsonObject | undefined][]) {
    if (value === undefined) continue;
    const result = redactMeta(value, redactor, ['meta', 'codec', format]);
    if (result.findings.length === 0) continue;
    appendAll(findings, result.findings);
    next ??= { ...codec };
    next[format] = result.value;
  }
  return { value: next ?? codec, findings };
}

/**
 * Redacts transcript-level codec data. When it changes, the transcript origin goes too: a codec may return the
 * origin's wire value, which still holds the secret.
 */
function redactTranscriptMeta(
  meta: TranscriptMeta | undefined,
  redactor: Redactor,
): { value: TranscriptMeta | undefined; findings: LocatedFinding[] } {
  const codec = redactCodecMeta(meta?.codec, redactor);
  if (meta === undefined || codec.findings.length === 0) return { value: meta, findings: [] };
  const { origin: _origin, ...rest } = meta;
  return { value: { ...rest, codec: codec.value ?? {} }, findings: codec.findings };
}
