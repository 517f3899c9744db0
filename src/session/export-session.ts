import { convertTranscript } from '../codecs/convert/convert-transcript.js';
import type { Loss } from '../codecs/convert/losses.js';
import { type WireProblem, wireProblems } from '../codecs/provider-rules/index.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';
import type { RedactOptions } from '../redact/options.js';
import { redactTranscript, type TranscriptFinding } from '../redact/redact-transcript.js';
import type { ExportFormat } from './export-formats.js';
import type { LoadedSession } from './session-types.js';

export { EXPORT_FORMATS, type ExportFormat } from './export-formats.js';

/** Options of {@link exportSession}. */
export interface ExportOptions {
  readonly to: ExportFormat;
  /** Mask secrets before anything is written (`true` = default redaction options). @default false */
  readonly redact?: boolean | RedactOptions;
}

/** One exported line, what redaction masked in it, what the conversion could not carry, and rule breaks. */
export interface ExportedSession {
  readonly line: JsonObject;
  readonly findings: readonly TranscriptFinding[];
  readonly losses: readonly Loss[];
  /** Provider-rule problems of the line (OpenAI and Anthropic); empty when it is valid. */
  readonly problems: readonly WireProblem[];
}

/**
 * The active conversation of a session as one dataset line with a fixed key set:
 * - `sharegpt`: Hermes' trajectory entry `{conversations, timestamp, model, completed}` (`timestamp`/`model`
 *   null when unknown; `completed`: the conversation ends with an assistant answer, no call left open);
 * - `openai`: `{messages}` (chat completions messages, API-valid: reasoning as `<think>` text, failed tool
 *   results marked `[tool error]`);
 * - `anthropic`: `{system, messages}` (`system` is `""` when the session has no system prompt).
 * Messages are converted to the format's canonical shape (`convertTranscript`): every runtime and wire field of
 * the source (Claude Code `parentUuid`, `isSidechain`, `toolUseResult`, envelopes, codec metadata) is left
 * behind and reported in `losses`, with everything else the format cannot carry. With `redact`, secrets are
 * masked on the way out.
 */
export function exportSession(session: LoadedSession, options: ExportOptions): ExportedSession {
  let transcript = session.transcript;
  let findings: readonly TranscriptFinding[] = [];
  if (options.redact !== undefined && options.redact !== false) {
    const result = redactTranscript(transcript, options.redact === true ? {} : options.redact);
    transcript = result.transcript;
    findings = result.findings;
  }
  const { wire, losses } = convertTranscript(transcript, options.to);
  const body = isJsonObject(wire) ? wire : {};
  const line = lineOf(body, options.to, session, transcript);
  return { line, findings, losses, problems: wireProblems(options.to, line, { trailingCalls: false }) };
}

function lineOf(
  body: JsonObject,
  to: ExportFormat,
  session: LoadedSession,
  transcript: Transcript,
): JsonObject {
  switch (to) {
    case 'sharegpt':
      return {
        conversations: body['conversations'] ?? [],
        timestamp: session.lastActivity ?? null,
        model: session.model ?? null,
        completed: isCompleted(transcript),
      };
    case 'openai':
      return { messages: body['messages'] ?? [] };
    case 'anthropic':
      return { system: systemText(body['system']), messages: body['messages'] ?? [] };
  }
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
