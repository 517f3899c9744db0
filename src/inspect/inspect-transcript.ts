import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';
import { ROLES, type Role } from '../model/role.js';
import type { Transcript } from '../model/transcript.js';
import { type VerifyProvider, type Violation, verifyTranscript } from '../model/verify.js';
import { type TokenBreakdown, tokenBreakdown, UNKNOWN_TOOL } from '../tokens/token-breakdown.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** One of the heaviest messages. */
export interface HeavyMessage {
  /** Index of the transcript in the file. */
  readonly transcript: number;
  /** Index of the message in its transcript. */
  readonly index: number;
  readonly role: Role;
  readonly tokens: number;
  /** Tool names of the calls or results the message carries. */
  readonly tools: readonly string[];
  readonly preview: string;
}

/** A violation located in a multi-transcript file. */
export interface LocatedViolation extends Violation {
  readonly transcript: number;
}

/** Everything `condense inspect` shows about a set of transcripts. */
export interface InspectReport {
  readonly transcripts: number;
  readonly messages: { readonly total: number; readonly byRole: Readonly<Record<Role, number>> };
  readonly toolCalls: { readonly total: number; readonly byName: Readonly<Record<string, number>> };
  readonly toolResults: { readonly total: number; readonly errors: number };
  readonly images: number;
  readonly reasoningParts: number;
  readonly tokens: readonly TokenBreakdown[];
  /** Heaviest messages by the first counter, heaviest first. */
  readonly heaviest: readonly HeavyMessage[];
  readonly violations: readonly LocatedViolation[];
}

/** Options of {@link inspectTranscripts}. */
export interface InspectOptions {
  /** Counters to report; the first one ranks the heaviest messages. */
  readonly counters: readonly TokenCounter[];
  /** Provider rules for verification. @default 'generic' */
  readonly provider?: VerifyProvider;
  /** How many heaviest messages to list. @default 10 */
  readonly heaviest?: number;
  /** Characters of preview per heavy message. @default 80 */
  readonly previewLength?: number;
}

/** Describes what is inside one or more transcripts: counts, token weights, heaviest messages and problems. */
export function inspectTranscripts(
  transcripts: readonly Transcript[],
  options: InspectOptions,
): InspectReport {
  const byRole = zeroByRole();
  const callsByName: Record<string, number> = {};
  let messageCount = 0;
  let results = 0;
  let resultErrors = 0;
  let images = 0;
  let reasoningParts = 0;
  const violations: LocatedViolation[] = [];
  const heavy: HeavyMessage[] = [];
  const ranking = options.counters[0];

  transcripts.forEach((transcript, transcriptIndex) => {
    const toolNames = callNames(transcript.messages);
    transcript.messages.forEach((message, index) => {
      messageCount++;
      byRole[message.role]++;
      for (const part of message.parts) {
        if (part.type === 'tool-call') callsByName[part.name] = (callsByName[part.name] ?? 0) + 1;
        if (part.type === 'tool-result') {
          results++;
          if (part.isError === true) resultErrors++;
          images += part.content.filter((inner) => inner.type === 'image').length;
        }
        if (part.type === 'image') images++;
        if (part.type === 'reasoning') reasoningParts++;
      }
      if (ranking !== undefined) {
        const tokens = ranking.countMessage(message);
        heavy.push(heavyMessage(message, transcriptIndex, index, tokens, toolNames, options));
      }
    });
    for (const violation of verifyTranscript(transcript, { provider: options.provider ?? 'generic' })) {
      violations.push({ ...violation, transcript: transcriptIndex });
    }
  });

  heavy.sort((left, right) => right.tokens - left.tokens);
  return {
    transcripts: transcripts.length,
    messages: { total: messageCount, byRole },
    toolCalls: { total: sum(Object.values(callsByName)), byName: sortedRecord(callsByName) },
    toolResults: { total: results, errors: resultErrors },
    images,
    reasoningParts,
    tokens: options.counters.map((counter) => tokenBreakdown(transcripts, counter)),
    heaviest: heavy.slice(0, options.heaviest ?? 10),
    violations,
  };
}

function zeroByRole(): Record<Role, number> {
  return Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
}

function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  return names;
}

function toolOf(part: Part, names: ReadonlyMap<string, string>): string | undefined {
  if (part.type === 'tool-call') return part.name;
  if (part.type === 'tool-result') return names.get(part.callId) ?? part.name ?? UNKNOWN_TOOL;
  return undefined;
}

function heavyMessage(
  message: Message,
  transcript: number,
  index: number,
  tokens: number,
  names: ReadonlyMap<string, string>,
  options: InspectOptions,
): HeavyMessage {
  const tools = [
    ...new Set(message.parts.map((part) => toolOf(part, names)).filter((name) => name !== undefined)),
  ];
  return {
    transcript,
    index,
    role: message.role,
    tokens,
    tools,
    preview: preview(message, options.previewLength ?? 80),
  };
}

/** A one-line preview of a message's content. */
export function preview(message: Message, length: number): string {
  const pieces: string[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        pieces.push(part.text);
        break;
      case 'tool-call':
        pieces.push(`${part.name}(${part.arguments})`);
        break;
      case 'tool-result':
        for (const inner of part.content) if (inner.type === 'text') pieces.push(inner.text);
        break;
      case 'image':
        pieces.push('[image]');
        break;
      case 'opaque':
        pieces.push(`[${part.kind}]`);
        break;
    }
    if (pieces.join(' ').length > length) break;
  }
  const flat = pieces.join(' ').replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function sortedRecord(record: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort((left, right) => right[1] - left[1]));
}
