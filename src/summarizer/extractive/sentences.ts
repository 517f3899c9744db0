import type { Message } from '../../model/message.js';

const CONSTRAINT =
  /\b(?:must(?:n't)?|never|don'?t|do not|always|keep|avoid|make sure|ensure|prefer|should(?:n't| not)?|only|without|no need to|instead of)\b/i;
// "I don't remember…" reports, "I don't want…" states a preference.
const FIRST_PERSON_REPORT = /\bI (?:don'?t|do not) (?!want|like|need|care|mind)/i;
// Questions and requests for a reply are neither decisions nor plans.
const QUESTION = /\?\s*$|^(?:please|would you|could you|can you|do you|let me know)\b|\blet me know\b/i;
const DECISION =
  /\b(?:because|decided|decide|instead|rather than|chose|choose|so that|the (?:root )?cause|the (?:issue|problem|bug|fix|culprit) (?:is|was)|turns out|going with|opted)\b/i;
// The runs of white space `\s+` finds, but for a lone space.
const SPACE_RUN = /[^\S ]\s*| \s+/g;
// A sentence's end inside a line: its mark and the white space after it, before what starts the next one.
const SENTENCE_END = /[.!?]\s+(?=[A-Z0-9"'`(])/g;
const INTENT =
  /\b(?:I'll|I will|I'm going to|let me|let's|next,? I|now I|we'll|we will|going to|I need to)\b/i;

/** Splits prose into sentences: fenced code, inline markup and list bullets removed, blank pieces dropped. */
export function splitSentences(text: string): string[] {
  // Each regex runs only on a text that has what all its matches start with.
  let prose = text.includes('```') ? text.replace(/```[\s\S]*?(?:```|$)/g, ' ') : text;
  if (prose.includes('<')) prose = prose.replace(/<[^>\n]{1,80}>/g, ' ');
  const out: string[] = [];
  // Line by line without the array of lines; blank lines come to nothing, as between the runs of `\n+`.
  for (let start = 0; start < prose.length; ) {
    const newline = prose.indexOf('\n', start);
    const end = newline === -1 ? prose.length : newline;
    const line = prose.slice(start, end);
    const cleaned = line.replace(/^\s*(?:[-*+>]|#{1,6}|\d+[.)])\s+/, '').trim();
    start = end + 1;
    if (cleaned !== '') pushSentences(cleaned, out);
  }
  return out;
}

/**
 * Adds the pieces of a line of at least 12 characters, trimmed, as `line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'`(])/)`
 * cuts it: at a run of white space after `.`, `!` or `?` that a capital, a digit, a quote or `(` follows. The
 * marks are searched for, where the split tried its look-behind at every character.
 */
function pushSentences(line: string, out: string[]): void {
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let end = SENTENCE_END.exec(line); end !== null; end = SENTENCE_END.exec(line)) {
    pushPiece(line.slice(start, end.index + 1), out);
    start = SENTENCE_END.lastIndex;
  }
  pushPiece(line.slice(start), out);
}

function pushPiece(piece: string, out: string[]): void {
  const trimmed = piece.trim();
  if (trimmed.length >= 12) out.push(trimmed);
}

/** Cuts a text to `max` characters at a word boundary when one is near, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  // The cut keeps at least one character, so at least two are read.
  const flat = flattenUpTo(text, Math.max(1, max));
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  const end = space > max * 0.6 ? space : cut.length;
  const code = cut.charCodeAt(end - 1);
  return `${cut.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end)}…`;
}

/**
 * `text.replace(/\s+/g, ' ').trim()`: a lone space, which that replaces by itself, is not replaced (most of
 * the white space of prose), so a text that has no other is not copied.
 */
export function flatten(text: string): string {
  return text.replace(SPACE_RUN, ' ').trim();
}

/**
 * {@link flatten} of the text when that is at most `limit` characters, else its first `limit + 1`: what
 * decides a cut is read, not a whole tool output or file content. A prefix of the text flattens to a prefix of the
 * whole one (a run of white space cut at its end flattens to the same space, which `trim` then drops), so
 * prefixes twice as long each time are read until one flattens to more than `limit` (not negative).
 */
export function flattenUpTo(text: string, limit: number): string {
  for (let window = Math.max(64, 2 * limit + 2); window < text.length; window *= 2) {
    const head = flatten(text.slice(0, window));
    if (head.length > limit) return head.slice(0, limit + 1);
  }
  const flat = flatten(text);
  return flat.length > limit ? flat.slice(0, limit + 1) : flat;
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

/** Of the sentences of assistant text (split by {@link splitSentences}), those that announce what it will do. */
export function intentsAmong(sentences: readonly string[]): string[] {
  return sentences.filter((sentence) => INTENT.test(sentence) && !QUESTION.test(sentence));
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
    const key = flatten(item.toLowerCase());
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    target.push(item);
  }
}
