import { appendAll } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { alignForward } from '../../transforms/tool-groups.js';
import { type ElementRef, refKey, refsOfMessage } from './references.js';
import { createReferenceResolver, type ReferenceResolver } from './resolve-reference.js';

/** Options of {@link restoreTranscript}. */
export interface RestoreOptions {
  /** References to put back (`m12#a1b2c3d4`, `ref=m12#a1b2c3d4` or a bare label `m12`); all when absent. */
  readonly refs?: readonly string[];
  /**
   * Remove codec data from messages that come from the compacted transcript only (rewritten messages the
   * original does not have). Set it when the two transcripts were decoded from different files, so an encoder
   * writes them as new messages of the original's file instead of reading another file's positions.
   * @default false
   */
  readonly stripCompactedMeta?: boolean;
}

/** What {@link restoreTranscript} did. */
export interface RestoreResult {
  /** The original transcript object itself when everything was put back and nothing else was added. */
  readonly transcript: Transcript;
  /** References whose elements were put back. */
  readonly restored: readonly string[];
  /** References found in the compacted transcript, or asked for, that match nothing in the original. */
  readonly unresolved: readonly string[];
  /** Spans of original messages put back. */
  readonly spans: number;
}

interface Segment {
  readonly from: number;
  to: number;
  readonly refs: ElementRef[];
  readonly stepWise: boolean;
}

/**
 * Puts collapsed elements of a rules-compacted transcript back from the original (the session log the
 * references point into). Each rewritten message names its originals by reference; restoring a reference
 * restores the smallest self-contained span holding it (a tool step with its results, a run of folded
 * assistant steps, a system message), so the result stays valid for every provider. References are matched
 * by label and verified by content hash, falling back to a search by hash when the label moved. Messages the
 * compaction kept are matched to the original by content and come back as the original's objects, so
 * restoring every reference of a rules output gives the input transcript itself.
 */
export function restoreTranscript(
  compacted: Transcript,
  original: Transcript,
  options: RestoreOptions = {},
): RestoreResult {
  const source = original.messages;
  const resolver = createReferenceResolver(source);
  const segments = segmentsOf(compacted.messages);
  const wanted = options.refs === undefined ? undefined : options.refs.map(normalizeRequest);
  const matchedRequests = new Set<string>();
  const unresolved = new Set<string>();
  // A set (listed in insertion order at the end): asking a list whether it held each reference was quadratic.
  const restored = new Set<string>();
  const out: Message[] = [];
  let cursor = 0;
  let spans = 0;
  let segmentAt = 0;
  for (let index = 0; index < compacted.messages.length; index++) {
    const segment = segments[segmentAt];
    if (segment === undefined || index < segment.from) {
      const message = compacted.messages[index] as Message;
      const at = resolver.locate(message, cursor);
      if (at === undefined) out.push(options.stripCompactedMeta === true ? detached(message) : message);
      else {
        out.push(source[at] as Message);
        cursor = at + 1;
      }
      continue;
    }
    segmentAt++;
    index = segment.to - 1;
    const members = compacted.messages.slice(segment.from, segment.to);
    const span = spanOf(segment, resolver, source, unresolved);
    const selected =
      span !== undefined &&
      span.lo >= cursor &&
      (wanted === undefined || segment.refs.some((ref) => matches(ref, wanted, matchedRequests)));
    if (!selected || span === undefined) {
      if (span !== undefined && span.lo >= cursor) cursor = span.hi;
      // Loops, not push(...): a span can hold more messages than a call takes arguments.
      for (const member of members) out.push(options.stripCompactedMeta === true ? detached(member) : member);
      continue;
    }
    for (let at = span.lo; at < span.hi; at++) out.push(source[at] as Message);
    cursor = span.hi;
    spans++;
    for (const ref of segment.refs) restored.add(refKey(ref));
  }
  for (const request of wanted ?? []) if (!matchedRequests.has(request)) unresolved.add(request);
  const whole = out.length === source.length && out.every((message, index) => message === source[index]);
  const transcript: Transcript = whole
    ? original
    : { messages: out, ...(original.meta === undefined ? {} : { meta: original.meta }) };
  return { transcript, restored: [...restored], unresolved: [...unresolved], spans };
}

/**
 * Rewritten messages and the tool messages that belong to them. A segment starts at a message carrying
 * references; one started by an assistant message takes the tool messages right after it (its kept results),
 * a tool or system message stands alone.
 */
function segmentsOf(messages: readonly Message[]): Segment[] {
  const segments: Segment[] = [];
  let open: Segment | undefined;
  messages.forEach((message, index) => {
    const refs = refsOfMessage(message);
    if (open !== undefined && message.role === 'tool') {
      appendAll(open.refs, refs);
      open.to = index + 1;
      return;
    }
    open = undefined;
    if (refs.length === 0) return;
    const segment: Segment = { from: index, to: index + 1, refs, stepWise: message.role === 'assistant' };
    segments.push(segment);
    if (segment.stepWise) open = segment;
  });
  return segments;
}

/** The original messages a segment stands for, as a half-open index range; undefined when no reference resolves. */
function spanOf(
  segment: Segment,
  resolver: ReferenceResolver,
  source: readonly Message[],
  unresolved: Set<string>,
): { lo: number; hi: number } | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  for (const ref of segment.refs) {
    const at = resolver.resolve(ref);
    if (at === undefined) {
      unresolved.add(refKey(ref));
      continue;
    }
    let start = at;
    let end = at + 1;
    if (segment.stepWise) {
      while (start > 0 && source[start]?.role === 'tool') start--;
      if (source[start]?.role !== 'assistant') start = at;
      else end = Math.max(end, alignForward(source, start + 1));
    }
    lo = Math.min(lo, start);
    hi = Math.max(hi, end);
  }
  return hi === -1 ? undefined : { lo, hi };
}

function normalizeRequest(request: string): string {
  return request.trim().replace(/^ref=/, '');
}

function matches(ref: ElementRef, wanted: readonly string[], matched: Set<string>): boolean {
  let hit = false;
  for (const request of wanted) {
    if (request === refKey(ref) || request === ref.label) {
      matched.add(request);
      hit = true;
    }
  }
  return hit;
}

function detached(message: Message): Message {
  if (message.meta?.codec === undefined && message.meta?.origin === undefined) return message;
  const { codec: _codec, origin: _origin, ...rest } = message.meta;
  const { meta: _meta, ...bare } = message;
  return Object.keys(rest).length === 0 ? bare : { ...bare, meta: rest };
}
