// src/summarizer/extractive/sentences.ts as it was before issue 15's second round (regex replaces and splits over
// whole texts), kept as the oracle of the faster scans. Nothing else imports it.
import type { Message } from '../../../src/model/message.js';

const CONSTRAINT =
  /\b(?:must(?:n't)?|never|don'?t|do not|always|keep|avoid|make sure|ensure|prefer|should(?:n't| not)?|only|without|no need to|instead of)\b/i;
// "I don't remember…" reports, "I don't want…" states a preference.
const FIRST_PERSON_REPORT = /\bI (?:don'?t|do not) (?!want|like|need|care|mind)/i;
// Questions and requests for a reply are neither decisions nor plans.
const QUESTION = /\?\s*$|^(?:please|would you|could you|can you|do you|let me know)\b|\blet me know\b/i;
const DECISION =
  /\b(?:because|decided|decide|instead|rather than|chose|choose|so that|the (?:root )?cause|the (?:issue|problem|bug|fix|culprit) (?:is|was)|turns out|going with|opted)\b/i;
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

/** Of the sentences of assistant text (split by {@link splitSentences}), those that state a decision or its reason. */
export function decisionsAmong(sentences: readonly string[]): string[] {
  return sentences.filter((sentence) => DECISION.test(sentence) && !QUESTION.test(sentence));
}

/** Sentences of assistant text that announce what it is about to do. */
export function intentSentences(text: string): string[] {
  return splitSentences(text).filter((sentence) => INTENT.test(sentence) && !QUESTION.test(sentence));
}

// A message that opens by pushing back on what the agent did is a correction, whatever it asks next.
const CORRECTION =
  /^(?:no\b|nope\b|wait\b|actually\b|stop\b|don'?t\b|do not\b|that'?s (?:wrong|not)\b|not quite\b|instead\b|hmm,? no\b|you (?:missed|forgot|broke)\b|why did you\b|please don'?t\b)/i;
// A heading that introduces what is left: "Still need to:", "Remaining work", "Next steps:", "TODO:". Its tail
// `:?\s*(?:(?:\*\*:?|:)\s*)?$` reads the same strings as `:?\s*(?:\*\*)?:?\s*$` with one way to read white
// space: two adjacent `\s*` took quadratic time on a long run of white space in the line.
export const REMAINING_HEADING =
  /^\s*(?:#+\s*)?(?:\*\*)?(?:still (?:need(?:s|ed)? to|to do|left)|remaining(?: work| tasks?| steps?)?|to ?do|next steps?|left to do|what'?s left|not (?:yet )?done|open items)\b[^\n]{0,60}?:?\s*(?:(?:\*\*:?|:)\s*)?$/i;

/** The person's message, clipped, when it corrects the agent ("no, use …", "actually …"). */
export function correctionOf(text: string): string | undefined {
  return CORRECTION.test(text.trim()) ? clip(text, 300) : undefined;
}

/** The items listed under a "still to do" heading in assistant text. */
export function remainingItems(text: string): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of text.split('\n')) {
    if (REMAINING_HEADING.test(line)) {
      inList = true;
      continue;
    }
    if (!inList) continue;
    const bullet = bulletText(line);
    if (bullet !== undefined) out.push(clip(bullet, 200));
    else if (line.trim() !== '') inList = false;
  }
  return out;
}

/**
 * The text of a bullet or numbered line, exactly as `/^\s*(?:[-*+]|\d+[.)])\s+(.+)$/` captures it, in linear time.
 */
export function bulletText(line: string): string | undefined {
  let at = line.length - line.trimStart().length;
  const code = line.charCodeAt(at);
  if (code === 0x2d || code === 0x2a || code === 0x2b) at++;
  else {
    const digits = at;
    while (line.charCodeAt(at) >= 0x30 && line.charCodeAt(at) <= 0x39) at++;
    if (at === digits || (line[at] !== '.' && line[at] !== ')')) return undefined;
    at++;
  }
  return textAfterSpace(line, at);
}

/**
 * What `\s+(.+)$` captures when tried at `at` of a line, in linear time: the regex gave back the white space one
 * character at a time when a line break (`\r`, U+2028) stopped `.+` before the end, rescanning the line each time.
 */
export function textAfterSpace(line: string, at: number): string | undefined {
  const text = at + (line.length - at - line.slice(at).trimStart().length);
  if (text === at) return undefined;
  // `\s+` gives back its last character when nothing follows it, and `.` stops at line breaks.
  const start = text < line.length ? text : text - at >= 2 ? text - 1 : text;
  if (start === line.length) return undefined;
  for (let index = start; index < line.length; index++) {
    const char = line.charCodeAt(index);
    if (char === 0x0a || char === 0x0d || char === 0x2028 || char === 0x2029) return undefined;
  }
  return line.slice(start);
}

/** The assistant's visible text in a message (reasoning is a separate part and never read). */
export function assistantText(message: Message): string {
  if (message.role !== 'assistant') return '';
  return message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .trim();
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
