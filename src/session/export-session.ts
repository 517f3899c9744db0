import { getCodec } from '../codecs/registry.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { Part, ToolResultContentPart } from '../model/part.js';
import type { Transcript } from '../model/transcript.js';
import type { RedactOptions } from '../redact/options.js';
import { redactTranscript, type TranscriptFinding } from '../redact/redact-transcript.js';
import type { LoadedSession } from './session-types.js';

/** Dataset formats a session exports to. */
export const EXPORT_FORMATS = ['sharegpt', 'openai', 'anthropic'] as const;

/** A dataset format of {@link exportSession}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Options of {@link exportSession}. */
export interface ExportOptions {
  readonly to: ExportFormat;
  /** Mask secrets before anything is written (`true` = default redaction options). @default false */
  readonly redact?: boolean | RedactOptions;
}

/** One exported line and what redaction masked in it. */
export interface ExportedSession {
  readonly line: JsonObject;
  readonly findings: readonly TranscriptFinding[];
}

/**
 * The active conversation of a session as one dataset line with a fixed key set:
 * - `sharegpt`: Hermes' trajectory entry `{conversations, timestamp, model, completed}` (`timestamp`/`model`
 *   null when unknown; `completed`: the conversation ends with an assistant answer, no call left open);
 * - `openai`: `{messages}` (chat completions messages);
 * - `anthropic`: `{system, messages}` (`system` is `""` when the session has no system prompt).
 * Messages are re-encoded from their parts only: every runtime and wire field of the source (Claude Code
 * `parentUuid`, `isSidechain`, `toolUseResult`, envelopes, codec metadata) is left behind. With `redact`, secrets
 * are masked on the way out.
 */
export function exportSession(session: LoadedSession, options: ExportOptions): ExportedSession {
  let transcript = plainTranscript(session.transcript);
  let findings: readonly TranscriptFinding[] = [];
  if (options.redact !== undefined && options.redact !== false) {
    const result = redactTranscript(transcript, options.redact === true ? {} : options.redact);
    transcript = result.transcript;
    findings = result.findings;
  }
  const wire = getCodec(options.to).encode(transcript);
  const body = isJsonObject(wire) ? wire : {};
  switch (options.to) {
    case 'sharegpt':
      return {
        line: {
          conversations: body['conversations'] ?? [],
          timestamp: session.lastActivity ?? null,
          model: session.model ?? null,
          completed: isCompleted(transcript),
        },
        findings,
      };
    case 'openai':
      return { line: { messages: body['messages'] ?? [] }, findings };
    case 'anthropic':
      return { line: { system: systemText(body['system']), messages: body['messages'] ?? [] }, findings };
  }
}

/** A transcript with nothing but roles and parts: no ids, no message, part or transcript metadata. */
export function plainTranscript(transcript: Transcript): Transcript {
  return { messages: transcript.messages.map(plainMessage) };
}

function plainMessage(message: Message): Message {
  return { role: message.role, parts: message.parts.map(plainPart) };
}

function plainPart(part: Part): Part {
  const { meta: _meta, ...rest } = part;
  if (rest.type !== 'tool-result') return rest as Part;
  return { ...rest, content: rest.content.map((inner) => plainPart(inner) as ToolResultContentPart) };
}

function systemText(system: JsonValue | undefined): JsonValue {
  if (system === undefined || system === null) return '';
  return system;
}

function isCompleted(transcript: Transcript): boolean {
  const last = transcript.messages.at(-1);
  return (
    last !== undefined && last.role === 'assistant' && !last.parts.some((part) => part.type === 'tool-call')
  );
}
