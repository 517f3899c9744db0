import type { Message } from '../model/message.js';
import { textPart, toolResultText } from '../model/message-helpers.js';
import type { Part, ToolResultPart } from '../model/part.js';
import { DUPLICATE_PREFIX, isCondensedOutput } from './condensed-markers.js';
import { mapMessages, mapParts } from './rewrite.js';
import { formatCount } from './text-facts.js';
import { indexToolCalls, type ToolCallIndex } from './tool-call-index.js';

/** Options of {@link dedupeToolResults}. */
export interface DedupeToolResultsOptions {
  /**
   * Outputs shorter than this are never replaced: a reference would save nothing.
   * @default 200
   */
  readonly minChars?: number;
  /**
   * Which copy stays whole. `newest` (Hermes) keeps the copy nearest the model's attention; `earliest` keeps
   * the first one, so everything before the second copy stays byte-identical and the provider's prompt cache
   * still matches it.
   * @default 'newest'
   */
  readonly keep?: 'newest' | 'earliest';
  /** Messages at or after this index are never rewritten (their outputs can still be the kept copy). */
  readonly protectFrom?: number;
}

/** One output replaced by a reference, and the copy it points to. */
export interface DuplicateReference {
  /** Message and part index of the replaced output. */
  readonly index: number;
  readonly partIndex: number;
  readonly callId: string;
  /** Message index and call id of the copy that stays whole. */
  readonly keptIndex: number;
  readonly keptCallId: string;
  /** Tool name of the kept copy's call. */
  readonly toolName: string;
}

/** Result of {@link dedupeToolResults}. */
export interface DedupeToolResultsResult {
  /** The input array itself when nothing was replaced. */
  readonly messages: readonly Message[];
  readonly deduplicated: number;
  readonly references: readonly DuplicateReference[];
}

interface Occurrence {
  readonly index: number;
  readonly partIndex: number;
  readonly part: ToolResultPart;
}

/**
 * Replaces tool outputs that repeat another output word for word (text only, at least `minChars` long) by a
 * short reference naming the copy that stays: its tool name and call id, so the agent can find it.
 */
export function dedupeToolResults(
  messages: readonly Message[],
  options: DedupeToolResultsOptions = {},
): DedupeToolResultsResult {
  const minChars = options.minChars ?? 200;
  const keepNewest = (options.keep ?? 'newest') === 'newest';
  const protectFrom = options.protectFrom ?? messages.length;
  const groups = new SameOutputs();
  for (let index = 0; index < messages.length; index++) {
    const parts = (messages[index] as Message).parts;
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex] as Part;
      if (part.type !== 'tool-result' || !part.content.every((content) => content.type === 'text')) continue;
      const text = toolResultText(part.content);
      if (text.length < minChars || isCondensedOutput(text)) continue;
      groups.add(text, part.isError === true, { index, partIndex, part });
    }
  }
  // Most transcripts repeat no output: the calls are indexed only for the first repeated group.
  let calls: ToolCallIndex | undefined;
  const replacements = new Map<string, Part>();
  const references: DuplicateReference[] = [];
  for (const group of groups.repeated()) {
    calls ??= indexToolCalls(messages);
    const kept = (keepNewest ? group[group.length - 1] : group[0]) as Occurrence;
    const toolName = calls.callFor(kept.index, kept.partIndex)?.name ?? kept.part.name ?? 'tool';
    for (const copy of group) {
      if (copy === kept || copy.index >= protectFrom) continue;
      const size = formatCount(toolResultText(copy.part.content).length);
      const later = copy.index < kept.index || (copy.index === kept.index && copy.partIndex < kept.partIndex);
      const where = later ? 'later' : 'earlier';
      const text = `${DUPLICATE_PREFIX} identical to the ${where} output of ${toolName} call ${kept.part.callId} (${size} chars)`;
      replacements.set(`${copy.index}:${copy.partIndex}`, { ...copy.part, content: [textPart(text)] });
      references.push({
        index: copy.index,
        partIndex: copy.partIndex,
        callId: copy.part.callId,
        keptIndex: kept.index,
        keptCallId: kept.part.callId,
        toolName,
      });
    }
  }
  if (references.length === 0) return { messages, deduplicated: 0, references };
  const out = mapMessages(messages, (message, index) =>
    mapParts(message, (part, partIndex) => replacements.get(`${index}:${partIndex}`) ?? part),
  );
  references.sort((left, right) => left.index - right.index || left.partIndex - right.partIndex);
  return { messages: out, deduplicated: references.length, references };
}

/** Outputs this many distinct texts of one length and status share are found through a map of their texts. */
const MAX_SCANNED_TEXTS = 8;

/**
 * Occurrences grouped by identical text and error status. Most outputs differ in length, so they are told apart
 * by length first and their texts compared only against the few of the same length: keying a map by every
 * text would hash every character of every output. Lengths many distinct texts share get a map of their own.
 */
class SameOutputs {
  readonly #byLength = new Map<
    number,
    { texts: string[]; groups: Occurrence[][]; byText?: Map<string, Occurrence[]> }
  >();
  readonly #all: Occurrence[][] = [];

  add(text: string, isError: boolean, occurrence: Occurrence): void {
    const shape = text.length * 2 + (isError ? 1 : 0);
    let bucket = this.#byLength.get(shape);
    if (bucket === undefined) {
      bucket = { texts: [], groups: [] };
      this.#byLength.set(shape, bucket);
    }
    const at = bucket.byText === undefined ? bucket.texts.indexOf(text) : -1;
    const group = at === -1 ? bucket.byText?.get(text) : bucket.groups[at];
    if (group !== undefined) {
      group.push(occurrence);
      return;
    }
    const created = [occurrence];
    this.#all.push(created);
    if (bucket.byText !== undefined) bucket.byText.set(text, created);
    else if (bucket.texts.length < MAX_SCANNED_TEXTS) {
      bucket.texts.push(text);
      bucket.groups.push(created);
    } else {
      bucket.byText = new Map(
        bucket.texts.map((known, index) => [known, bucket.groups[index] as Occurrence[]]),
      );
      bucket.byText.set(text, created);
    }
  }

  /** Groups of two or more, in the order their first output came. */
  *repeated(): Iterable<Occurrence[]> {
    for (const group of this.#all) if (group.length > 1) yield group;
  }
}
