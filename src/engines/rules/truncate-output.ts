import { textPart, toolResultText } from '../../model/message-helpers.js';
import type { ToolResultPart } from '../../model/part.js';
import { formatCount, truncateStart } from '../../transforms/text-facts.js';
import { isTruncatedOutput, TRUNCATION_PREFIX } from './markers.js';
import { preservedSuffix } from './preserve.js';
import { type ElementRef, formatRef } from './references.js';

/** Limits of rule 2. */
export interface TruncateLimits {
  /** Outputs longer than this are cut; also the longest line kept. */
  readonly maxChars: number;
  readonly headLines: number;
  readonly tailLines: number;
}

/**
 * Rule 2 on one tool result: an output over `maxChars` keeps its first `headLines` and last `tailLines` lines
 * (each at most `maxChars` long) around a marker that says how many lines were cut, references the original
 * and lists every path, URL and error line of the cut part. Undefined when the output is short enough, was
 * already cut, or cutting would not make it shorter. Non-text content (images) is kept after the text.
 */
export function truncateToolResult(
  result: ToolResultPart,
  limits: TruncateLimits,
  ref: ElementRef,
): ToolResultPart | undefined {
  const text = toolResultText(result.content);
  if (text.length <= limits.maxChars || isTruncatedOutput(text)) return undefined;
  const lines = text.split('\n');
  const cutLines = lines.length > limits.headLines + limits.tailLines;
  const head = cutLines ? lines.slice(0, limits.headLines) : lines;
  const tail = cutLines && limits.tailLines > 0 ? lines.slice(lines.length - limits.tailLines) : [];
  const removed = cutLines ? lines.slice(limits.headLines, lines.length - limits.tailLines) : [];
  let shortened = 0;
  const cap = (line: string): string => {
    if (line.length <= limits.maxChars) return line;
    shortened++;
    return `${truncateStart(line, limits.maxChars)}[+${formatCount(line.length - limits.maxChars)} chars]`;
  };
  const keptHead = head.map(cap);
  const keptTail = tail.map(cap);
  if (!cutLines && shortened === 0) return undefined;
  const removedChars = removed.reduce((sum, line) => sum + line.length + 1, 0);
  const what = cutLines
    ? `${formatCount(removed.length)} line${removed.length === 1 ? '' : 's'} (${formatCount(removedChars)} chars) cut here`
    : `${formatCount(shortened)} long line${shortened === 1 ? '' : 's'} shortened`;
  const base = `${TRUNCATION_PREFIX}${what}${shortened > 0 && cutLines ? `, ${formatCount(shortened)} long line${shortened === 1 ? '' : 's'} shortened` : ''} · ${formatRef(ref)}`;
  const kept = [...keptHead, ...keptTail].join('\n');
  const marker = `${base}${preservedSuffix([{ role: 'tool', parts: [result] }], `${result.name ?? ''}\n${kept}\n${base}`)}]`;
  const next = cutLines ? [...keptHead, marker, ...keptTail].join('\n') : `${keptHead.join('\n')}\n${marker}`;
  if (next.length >= text.length) return undefined;
  const others = result.content.filter((part) => part.type !== 'text');
  return { ...result, content: [textPart(next), ...others] };
}
