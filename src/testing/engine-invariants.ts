import type { CompactionProvenance } from '../engines/provenance.js';
import type { Message } from '../model/message.js';
import type { Transcript } from '../model/transcript.js';
import { verifyTranscript } from '../model/verify.js';
import { findLatestUserRequest } from '../transforms/find-latest-user-request.js';
import { personText } from '../transforms/user-turns.js';
import { provenanceFailures } from './provenance-invariants.js';

/** The invariants {@link runEngineConformance} checks, one name each. */
export type EngineCheck =
  /** The engine threw something other than `BUDGET_UNREACHABLE`. */
  | 'threw'
  /** The engine wrote to its input (which the suite deep-freezes). */
  | 'input-mutated'
  /** The output breaks a provider rule (OpenAI, Anthropic or shared) the input did not break. */
  | 'provider-rules'
  /** The person's latest request is not, verbatim, the latest request of the output. */
  | 'latest-request'
  /** The leading system message(s) did not come back byte-identical. */
  | 'system-prompt'
  /** The output is past the window and no `BUDGET_UNREACHABLE` was raised. */
  | 'budget'
  /** The report's counts do not describe the output, or it changed nothing without saying why. */
  | 'report'
  /** The report's per-message provenance, when it has one, does not describe the pass (see `provenanceFailures`). */
  | 'provenance'
  /** An unforced second pass over the output, below the threshold, changed it. */
  | 'idempotent'
  /** Triggering disagrees with the threshold or the window (`shouldCompress`, unforced passes, usage). */
  | 'threshold';

/** One broken invariant: the transcript, the step of the suite, what was wrong. */
export interface EngineConformanceFailure {
  readonly case: string;
  readonly step: string;
  readonly check: EngineCheck;
  readonly detail: string;
}

/** A copy of the value in which every object and array is frozen (shared references stay shared). */
export function deepFrozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const seen = new Set<object>();
  const freeze = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    for (const child of Object.values(node)) freeze(child);
    Object.freeze(node);
  };
  freeze(copy);
  return copy;
}

/** True for the TypeError strict-mode code throws when it writes to a frozen object. */
export function isFrozenWrite(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /read[- ]only|not extensible|Cannot (add|assign|delete|define)|frozen/i.test(error.message)
  );
}

/**
 * What an engine's output must keep of its input, as failure details (empty when it holds): no new provider
 * violation, the latest request verbatim, the system prompt byte-identical.
 */
export function outputFailures(
  input: Transcript,
  output: Transcript,
): { readonly check: EngineCheck; readonly detail: string }[] {
  const failures: { check: EngineCheck; detail: string }[] = [];
  for (const provider of ['generic', 'openai', 'anthropic'] as const) {
    const before = new Set(verifyTranscript(input, { provider }).map((violation) => violation.code));
    const added = verifyTranscript(output, { provider }).filter((violation) => !before.has(violation.code));
    if (added.length > 0) {
      failures.push({
        check: 'provider-rules',
        detail: `${provider}: ${added.map((violation) => violation.message).join('; ')}`,
      });
    }
  }
  const latest = findLatestUserRequest(input.messages);
  if (latest >= 0) {
    const wanted = personText(input.messages[latest] as Message);
    const found = findLatestUserRequest(output.messages);
    const got = found < 0 ? undefined : personText(output.messages[found] as Message);
    if (found < 0 || got !== wanted) {
      failures.push({
        check: 'latest-request',
        detail: `expected ${quote(wanted)}, found ${found < 0 ? 'no request' : quote(got)}`,
      });
    }
  }
  const systemIn = leadingSystem(input.messages);
  const systemOut = leadingSystem(output.messages);
  const changed = systemIn.findIndex(
    (message, index) =>
      systemOut[index] === undefined ||
      JSON.stringify(systemOut[index]?.parts) !== JSON.stringify(message.parts),
  );
  if (changed >= 0) {
    failures.push({ check: 'system-prompt', detail: `system message ${changed} changed or went missing` });
  }
  return failures;
}

/** The report's message counts against the transcripts, and a reason whenever nothing changed. */
export function reportFailures(
  input: Transcript,
  result: { readonly transcript: Transcript; readonly report: ReportView },
  engineName: string,
): { readonly check: EngineCheck; readonly detail: string }[] {
  const { report } = result;
  const failures: { check: EngineCheck; detail: string }[] = [];
  if (report.engine !== engineName)
    failures.push({ check: 'report', detail: `report.engine is "${report.engine}", not "${engineName}"` });
  if (report.messagesBefore !== input.messages.length)
    failures.push({
      check: 'report',
      detail: `messagesBefore ${report.messagesBefore}, input has ${input.messages.length}`,
    });
  if (report.messagesAfter !== result.transcript.messages.length)
    failures.push({
      check: 'report',
      detail: `messagesAfter ${report.messagesAfter}, output has ${result.transcript.messages.length}`,
    });
  if (!report.madeProgress && !report.aborted && report.reason === undefined && report.notes.length === 0)
    failures.push({ check: 'report', detail: 'the pass made no progress and did not say why' });
  for (const detail of provenanceFailures(input.messages, result.transcript.messages, report.provenance))
    failures.push({ check: 'provenance', detail });
  return failures;
}

/** The report fields the suite reads. */
export interface ReportView {
  readonly engine: string;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly madeProgress: boolean;
  readonly aborted: boolean;
  readonly reason?: string;
  readonly notes: readonly string[];
  readonly provenance?: CompactionProvenance;
}

/** True when two transcripts hold the same messages, compared by value. */
export function sameMessages(left: Transcript, right: Transcript): boolean {
  return left.messages === right.messages || JSON.stringify(left.messages) === JSON.stringify(right.messages);
}

function leadingSystem(messages: readonly Message[]): Message[] {
  const end = messages.findIndex((message) => message.role !== 'system');
  return messages.slice(0, end < 0 ? messages.length : end);
}

function quote(text: string | undefined): string {
  if (text === undefined) return 'no words';
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
