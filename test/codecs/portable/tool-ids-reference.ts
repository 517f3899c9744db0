/*
 * planToolIds as it was before a search for a free suffix resumed where the last one for its base stopped
 * (2026-11-26): each search started at _2, which was quadratic in calls reusing one id. Kept as the reference the
 * property test holds the linear version to. Not part of condense.
 */

import type { Message } from '../../../src/model/message.js';
import type { Part } from '../../../src/model/part.js';

/** What {@link planToolIds} decided: the new id of every call and result part that needs one. */
interface ToolIdPlan {
  /** New ids by part object (calls and results); parts not listed keep theirs. */
  readonly ids: ReadonlyMap<Part, string>;
  /** Tool calls whose id changes. */
  readonly rewrittenCalls: number;
  /** For each new id, the id it replaces (to map a provider's answer back). */
  readonly original: ReadonlyMap<string, string>;
}

/**
 * Plans valid, unique tool ids for a provider that restricts them (Anthropic: `^[a-zA-Z0-9_-]+$`, unique in a
 * request). A valid id used once is kept. Otherwise characters outside the pattern become `_`, and an id already
 * taken gets a `_2`, `_3`… suffix: the first call with an id keeps it, a later call reusing it (a new turn) gets a
 * fresh one. A result takes the new id of the latest call before it with its original id, so pairs stay pairs; a
 * result with no call before it is mapped the same way on its own, and the first call after it with its original
 * id takes that id too, so a result written before its call still names it. Messages `keep` selects (read from the
 * target's own wire, written back as read) keep their ids. Pure and deterministic.
 */
export function referencePlanToolIds(
  messages: readonly Message[],
  pattern: RegExp,
  keep: (message: Message) => boolean = () => false,
): ToolIdPlan {
  const taken = new Set<string>();
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === 'tool-call' && pattern.test(part.id)) taken.add(part.id);
      if (part.type === 'tool-result' && pattern.test(part.callId)) taken.add(part.callId);
    }
  const ids = new Map<Part, string>();
  const original = new Map<string, string>();
  const latest = new Map<string, string>();
  // Ids given to results that came before any call with their original id, for that call to take.
  const early = new Map<string, string>();
  const used = new Set<string>();
  let rewrittenCalls = 0;
  const fresh = (id: string): string => {
    const base = sanitize(id);
    let candidate = base;
    for (let n = 2; used.has(candidate) || (candidate !== id && taken.has(candidate)); n++)
      candidate = `${base}_${n}`;
    used.add(candidate);
    return candidate;
  };
  for (const message of messages) {
    const kept = keep(message);
    for (const part of message.parts) {
      if (kept) {
        if (part.type === 'tool-call') {
          used.add(part.id);
          latest.set(part.id, part.id);
          early.delete(part.id);
        }
        continue;
      }
      if (part.type === 'tool-call') {
        const reserved = early.get(part.id);
        early.delete(part.id);
        const id = reserved ?? (pattern.test(part.id) && !used.has(part.id) ? part.id : fresh(part.id));
        used.add(id);
        latest.set(part.id, id);
        if (id !== part.id) {
          ids.set(part, id);
          original.set(id, part.id);
          rewrittenCalls++;
        }
      } else if (part.type === 'tool-result') {
        let id = latest.get(part.callId);
        if (id === undefined) {
          id = pattern.test(part.callId) && !used.has(part.callId) ? part.callId : fresh(part.callId);
          used.add(id);
          latest.set(part.callId, id);
          early.set(part.callId, id);
        }
        if (id !== part.callId) {
          ids.set(part, id);
          original.set(id, part.callId);
        }
      }
    }
  }
  return { ids, rewrittenCalls, original };
}

function sanitize(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'toolu' : cleaned;
}
