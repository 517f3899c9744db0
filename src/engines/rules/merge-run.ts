import { firstNonBlankLine } from '../../inspect/text-lines.js';
import { appendAll } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import { textPart, withParts } from '../../model/message-helpers.js';
import type { Part } from '../../model/part.js';
import { formatCount, oneLine, truncateStart } from '../../transforms/text-facts.js';
import type { CollapsedElement } from './collapsed-element.js';
import { ASSISTANT_MARKER_PREFIX, isRuleLine, MERGE_HEADER_PREFIX } from './markers.js';
import { preservedSuffix } from './preserve.js';
import { type ElementRef, formatRef } from './references.js';

/** One assistant message of a run, and the reference of the input message it stands for (if it is one). */
export interface RunMember {
  readonly message: Message;
  /** Undefined when the input message was itself written by an earlier pass (its own lines carry references). */
  readonly ref: ElementRef | undefined;
  /** The input message (before rule 1), for recall. */
  readonly original: Message;
}

/** A run folded into its last message. */
export interface MergedRun {
  readonly message: Message;
  readonly elements: readonly CollapsedElement[];
}

const MAX_QUOTE = 80;

/**
 * Rule 4: a run of consecutive assistant messages folded into the last one. The last message keeps all its
 * parts; in front of them (after any leading reasoning) goes one text block: a header line, then for each
 * earlier message its collapsed-call lines and other rule lines verbatim, and a marker for the rest of what it
 * said (quoted start, size, reference, and every path and URL it named). Nothing the rules keep is lost, and
 * the message sequence loses only assistant messages, so tool calls stay paired.
 */
export function mergeRun(run: readonly RunMember[]): MergedRun {
  const kept = run[run.length - 1] as RunMember;
  const earlier = run.slice(0, -1);
  const lines: string[] = [
    `${MERGE_HEADER_PREFIX}${earlier.length} earlier assistant message${earlier.length === 1 ? '' : 's'} folded into this one${kept.ref === undefined ? '' : ` · ${formatRef(kept.ref)}`}]`,
  ];
  // The kept message is referenced too (restoring the run needs it); recall then returns it as it was.
  const elements: CollapsedElement[] =
    kept.ref === undefined ? [] : [{ ref: kept.ref, kind: 'assistant', message: kept.original }];
  for (const member of earlier) {
    const residue = residueOf(member);
    appendAll(lines, residue.lines);
    if (residue.dropped && member.ref !== undefined) {
      elements.push({ ref: member.ref, kind: 'assistant', message: member.original });
    }
  }
  const parts = kept.message.parts;
  let at = 0;
  while (at < parts.length && parts[at]?.type === 'reasoning') at++;
  const merged: Part[] = [...parts.slice(0, at), textPart(lines.join('\n')), ...parts.slice(at)];
  return { message: withParts(kept.message, merged), elements };
}

/** The lines an earlier message of a run leaves behind, and whether anything of it was dropped. */
function residueOf(member: RunMember): { lines: string[]; dropped: boolean } {
  const kept: string[] = [];
  const droppedParts: Part[] = [];
  let droppedText = '';
  let reasoning = false;
  for (const part of member.message.parts) {
    if (part.type === 'reasoning') {
      reasoning = true;
      droppedParts.push(part);
      continue;
    }
    if (part.type !== 'text') {
      droppedParts.push(part);
      continue;
    }
    const other: string[] = [];
    for (const line of part.text.split('\n')) (isRuleLine(line) ? kept : other).push(line);
    const rest = other.join('\n');
    if (rest.trim() !== '') {
      droppedParts.push(textPart(rest));
      droppedText = droppedText === '' ? rest : `${droppedText}\n${rest}`;
    }
  }
  if (droppedParts.length === 0) return { lines: kept, dropped: false };
  const quote = truncateStart(oneLine(firstNonBlankLine(droppedText)), MAX_QUOTE);
  const size = [`${formatCount(droppedText.length)} chars`];
  if (reasoning) size.push('reasoning');
  const calls = droppedParts.filter((part) => part.type === 'tool-call').length;
  if (calls > 0) size.push(`${calls} unanswered tool call${calls === 1 ? '' : 's'}`);
  const base = `${ASSISTANT_MARKER_PREFIX}${quote === '' ? '(no text)' : `"${quote}"`} (${size.join(', ')})${member.ref === undefined ? '' : ` · ${formatRef(member.ref)}`}`;
  const suffix = preservedSuffix([{ role: 'assistant', parts: droppedParts }], `${base}\n${kept.join('\n')}`);
  return { lines: [`${base}${suffix}]`, ...kept], dropped: true };
}
