import { expect } from 'vitest';
import type { CompactionReport } from '../../src/engines/compaction-report.js';
import { createEngine } from '../../src/engines/registry.js';
import { NO_RULE_COUNTS } from '../../src/engines/rules/rules-report.js';
import type { Transcript } from '../../src/model/transcript.js';
import type { ReportTranscript } from '../../src/report/report-input.js';

/** Compacts with a fresh engine (forced) and returns what the report page needs. */
export async function compactFor(
  engine: 'compressor' | 'rules',
  transcript: Transcript,
  options: { contextLength?: number; force?: boolean } = {},
): Promise<ReportTranscript> {
  const result = await createEngine(engine, { contextLength: options.contextLength ?? 8_000 }).compress(
    transcript,
    { force: options.force ?? true },
  );
  return { before: transcript, after: result.transcript, report: result.report };
}

/** One message card as the page shows it, read back from its data attributes. */
export interface Card {
  readonly side: 'before' | 'after';
  readonly index: number;
  readonly status: string;
  readonly tokens: number;
  readonly transcript: number;
}

/** Every card of the page, with the section it is in. */
export function cardsOf(html: string): Card[] {
  const cards: Card[] = [];
  let transcript = -1;
  const pattern =
    /<section class="transcript" id="t\d+" data-transcript="(\d+)">|<article class="msg [^"]*" data-side="(before|after)" data-index="(\d+)" data-tokens="(\d+)" data-status="([a-z]+)">/g;
  for (const match of html.matchAll(pattern)) {
    if (match[1] !== undefined) {
      transcript = Number(match[1]);
      continue;
    }
    cards.push({
      side: match[2] as 'before' | 'after',
      index: Number(match[3]),
      tokens: Number(match[4]),
      status: match[5] as string,
      transcript,
    });
  }
  return cards;
}

/** Counts of a status on one side of one transcript. */
export function countStatus(
  cards: readonly Card[],
  side: 'before' | 'after',
  status: string,
  transcript = 0,
): number {
  return cards.filter(
    (card) => card.side === side && card.status === status && card.transcript === transcript,
  ).length;
}

// The elements the report emits; any other tag would be transcript text that escaped escaping.
const ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'style',
  'body',
  'main',
  'h1',
  'h2',
  'h3',
  'p',
  'nav',
  'ol',
  'li',
  'a',
  'section',
  'div',
  'table',
  'caption',
  'tbody',
  'tr',
  'th',
  'td',
  'details',
  'summary',
  'pre',
  'span',
  'article',
  'header',
  'strong',
  'em',
]);
const VOID = new Set(['meta']);

/**
 * A light well-formedness check: the doctype, then only known elements, every one closed in order, and no `<`
 * that does not start one of them (so no transcript text reached the page unescaped).
 */
export function expectWellFormed(html: string): void {
  expect(html.startsWith('<!DOCTYPE html>\n')).toBe(true);
  const body = html.slice('<!DOCTYPE html>'.length).replace(/<style>[^<]*<\/style>/, '<style></style>');
  const stack: string[] = [];
  let at = 0;
  for (;;) {
    const open = body.indexOf('<', at);
    if (open === -1) break;
    const tag = /^<(\/?)([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>/.exec(body.slice(open, open + 2_000));
    expect(tag, `stray "<" at ${open}: ${body.slice(open, open + 80)}`).not.toBeNull();
    if (tag === null) return;
    const [whole, closing, name] = tag as unknown as [string, string, string];
    expect(ELEMENTS.has(name), `unexpected element <${name}>`).toBe(true);
    if (closing === '/') expect(stack.pop(), `</${name}> closes the wrong element`).toBe(name);
    else if (!VOID.has(name)) stack.push(name);
    at = open + whole.length;
  }
  expect(stack).toEqual([]);
}

/** The report's rule counts, or zeros. */
export function ruleCounts(report: CompactionReport) {
  return report.rules ?? NO_RULE_COUNTS;
}
