// src/summarizer/extractive/sentences.ts as it was before issue 15's second round (regex replaces and splits over
// whole texts), kept as the oracle of the faster scans: the functions that round changed. The others are the
// module's own, unchanged. Only the tests import it.
export {
  assistantText,
  bulletText,
  correctionOf,
  decisionsAmong,
  REMAINING_HEADING,
  remainingItems,
  textAfterSpace,
} from '../../../src/summarizer/extractive/sentences.js';

const CONSTRAINT =
  /\b(?:must(?:n't)?|never|don'?t|do not|always|keep|avoid|make sure|ensure|prefer|should(?:n't| not)?|only|without|no need to|instead of)\b/i;
// "I don't remember…" reports, "I don't want…" states a preference.
const FIRST_PERSON_REPORT = /\bI (?:don'?t|do not) (?!want|like|need|care|mind)/i;
// Questions and requests for a reply are neither decisions nor plans.
const QUESTION = /\?\s*$|^(?:please|would you|could you|can you|do you|let me know)\b|\blet me know\b/i;
const INTENT =
  /\b(?:I'll|I will|I'm going to|let me|let's|next,? I|now I|we'll|we will|going to|I need to)\b/i;

/** Splits prose into sentences: fenced code, inline markup and list bullets removed, blank pieces dropped. */
export function splitSentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/<[^>\n]{1,80}>/g, ' ');
  const out: string[] = [];
  for (const line of prose.split(/\n+/)) {
    const cleaned = line.replace(/^\s*(?:[-*+>]|#{1,6}|\d+[.)])\s+/, '').trim();
    if (cleaned === '') continue;
    for (const sentence of cleaned.split(/(?<=[.!?])\s+(?=[A-Z0-9"'`(])/)) {
      const trimmed = sentence.trim();
      if (trimmed.length >= 12) out.push(trimmed);
    }
  }
  return out;
}

/** Cuts a text to `max` characters at a word boundary when one is near, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  const end = space > max * 0.6 ? space : cut.length;
  const code = cut.charCodeAt(end - 1);
  return `${cut.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end)}…`;
}

/** Sentences of user text that state a rule or preference. */
export function constraintSentences(text: string): string[] {
  return splitSentences(text).filter(
    (sentence) =>
      CONSTRAINT.test(sentence) && !FIRST_PERSON_REPORT.test(sentence) && !/\?\s*$/.test(sentence),
  );
}

/** Sentences of assistant text that announce what it is about to do. */
export function intentSentences(text: string): string[] {
  return splitSentences(text).filter((sentence) => INTENT.test(sentence) && !QUESTION.test(sentence));
}

/** Adds items not seen yet (compared without case and spacing), keeping first-seen order. */
export function pushUnique(target: string[], items: readonly string[], seen: Set<string>): void {
  for (const item of items) {
    const key = item.toLowerCase().replace(/\s+/g, ' ').trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    target.push(item);
  }
}
