import { firstNonBlankLine } from '../../inspect/text-lines.js';
import type { Message } from '../../model/message.js';
import { messageText, textPart, withParts } from '../../model/message-helpers.js';
import { formatCount, truncateStart } from '../../transforms/text-facts.js';
import { SYSTEM_MARKER_PREFIX } from './markers.js';
import { preservedSuffix } from './preserve.js';
import { type ElementRef, formatRef } from './references.js';

const MAX_FIRST_LINE = 100;
const MAX_HEADINGS = 5;
const HEADING = /^#{1,3}\s+(\S.{0,60})/;

/**
 * Rule 3: a system message reduced to one line saying what was there (its first line, its first few Markdown
 * headings, its size), the reference of the original, and the paths and URLs it named. The role stays
 * `system`, so the message sequence (and every provider rule about it) is unchanged.
 */
export function systemMarker(message: Message, ref: ElementRef): Message {
  const text = messageText(message);
  const first = firstNonBlankLine(text);
  const headings: string[] = [];
  for (const line of text.split('\n')) {
    const heading = HEADING.exec(line.trim())?.[1];
    if (heading !== undefined && line.trim() !== first) headings.push(heading.trim());
    if (headings.length === MAX_HEADINGS) break;
  }
  const what = [`"${truncateStart(first, MAX_FIRST_LINE)}"`, ...headings].join(' + ');
  const base = `${SYSTEM_MARKER_PREFIX}${what} (${formatCount(text.length)} chars) · ${formatRef(ref)}`;
  // System text is not an artifact source of its own; read as assistant text it gives its paths and URLs.
  const suffix = preservedSuffix([{ role: 'assistant', parts: message.parts }], base);
  return withParts(message, [textPart(`${base}${suffix}]`.replace(/\r?\n|\r/g, ' '))]);
}
