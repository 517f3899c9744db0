import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import type { CompactionReport } from '../../src/engines/compaction-report.js';
import type { Transcript } from '../../src/model/transcript.js';
import { classifyMessages } from '../../src/report/classify-messages.js';
import { REPORT_CSP, renderReportHtml } from '../../src/report/render-report.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import { exampleSession } from '../engines/support.js';
import { corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { buildHostileSession, buildRulesSession, HOSTILE } from './fixtures.js';
import { cardsOf, compactFor, countStatus, expectWellFormed, ruleCounts } from './support.js';

/** The checks every page must pass, whatever the transcript and engine. */
function expectFaithfulPage(
  html: string,
  entries: readonly { before: Transcript; after: Transcript }[],
): void {
  expectWellFormed(html);
  const cards = cardsOf(html);
  entries.forEach((entry, transcript) => {
    for (const side of ['before', 'after'] as const) {
      const indices = cards
        .filter((card) => card.side === side && card.transcript === transcript)
        .map((card) => card.index)
        .sort((a, b) => a - b);
      expect(indices).toEqual(entry[side].messages.map((_, index) => index));
    }
  });
}

/** Status counts and classification totals against the report's own figures. */
function expectCountsAgree(
  html: string,
  report: CompactionReport,
  before: Transcript,
  after: Transcript,
): void {
  const cards = cardsOf(html);
  const { totals } = classifyMessages(before.messages, after.messages, report);
  const newCards = countStatus(cards, 'after', 'new');
  if (report.engine === 'compressor') {
    expect(totals.folded).toBe(report.dropped);
    expect(countStatus(cards, 'before', 'folded')).toBeGreaterThanOrEqual(report.dropped);
    expect(newCards).toBe(report.summary.source === 'none' ? 0 : 1);
    expect(totals.digested).toBeLessThanOrEqual(report.pruning.digested);
    expect(totals.deduplicated).toBeLessThanOrEqual(report.pruning.deduplicated);
    expect(totals.argumentsShrunk).toBeLessThanOrEqual(report.pruning.argumentsShrunk);
    expect(totals.imagesStripped).toBeLessThanOrEqual(report.pruning.imagesStripped);
  } else {
    const rules = ruleCounts(report);
    expect(newCards).toBe(0);
    expect(totals.collapsedPairs).toBe(rules.collapsedPairs);
    expect(totals.truncatedOutputs).toBe(rules.truncatedOutputs);
    expect(totals.droppedSystem).toBe(rules.droppedSystem);
    expect(totals.mergedAssistant).toBe(rules.mergedAssistant);
    expect(countStatus(cards, 'before', 'merged')).toBeGreaterThanOrEqual(rules.mergedAssistant);
  }
  if (!report.madeProgress) {
    expect(cards.every((card) => card.status === 'kept')).toBe(true);
  }
  expect(countStatus(cards, 'after', 'changed')).toBe(0);
}

describe('renderReportHtml', () => {
  it('is one self-contained page: a CSP meta that forbids loading anything, no script, no external URL', async () => {
    const entry = await compactFor('compressor', buildHostileSession());
    const html = renderReportHtml({ transcripts: [entry] });
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed/i);
    const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1]).join('');
    expect(styles.length).toBeGreaterThan(1_000);
    expect(styles).not.toMatch(/@import|url\(|https?:/i);
    for (const match of html.matchAll(/\s(?:src|href|action|srcset)\s*=\s*"([^"]*)"/gi)) {
      const value = match[1] as string;
      expect(value.startsWith('#'), value).toBe(true);
      expect(value).not.toMatch(/https?:|\/\//);
    }
  });

  it.each(['compressor', 'rules'] as const)(
    'escapes hostile text in messages, tool names, arguments, results and ids (%s)',
    async (engine) => {
      const entry = await compactFor(engine, buildHostileSession());
      const html = renderReportHtml({
        transcripts: [entry],
        title: `t ${HOSTILE[0]}`,
        sourceName: HOSTILE[1],
      });
      expectFaithfulPage(html, [entry]);
      for (const hostile of HOSTILE) expect(html).not.toContain(hostile);
      expect(html).toContain('&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
      expect(html).toContain('tool&lt;/pre&gt;');
      expect(html).toContain('&amp;lt;already-escaped&amp;gt;');
      expect(html).not.toMatch(/<(?:script|img|iframe|body onload)/);
    },
  );

  it('replaces control characters and lone surrogates so the page stays valid', () => {
    const before: Transcript = {
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'a\u0000b\u001bc\ud800d\u2028e' }] }],
    };
    const report = noopReport(before);
    const html = renderReportHtml({ transcripts: [{ before, after: before, report }] });
    expect(html).toContain('a\ufffdb\ufffdc\ufffdd');
    expect(html.includes('\u0000') || html.includes('\u001b')).toBe(false);
  });

  it('counts agree with the compressor report on a built coding session', async () => {
    const entry = await compactFor('compressor', buildCodingSession({ steps: 30 }), { contextLength: 8_000 });
    expect(entry.report.madeProgress).toBe(true);
    const html = renderReportHtml({ transcripts: [entry] });
    expectFaithfulPage(html, [entry]);
    expectCountsAgree(html, entry.report, entry.before, entry.after);
    const cards = cardsOf(html);
    expect(countStatus(cards, 'after', 'new')).toBe(1);
    expect(countStatus(cards, 'before', 'folded')).toBe(entry.report.dropped);
    // The latest user request is kept and says so.
    expect(html).toMatch(
      /data-side="before" data-index="\d+"[^>]*data-status="kept">.*?latest user request/s,
    );
  });

  it('counts agree with the rules report when every rule fires', async () => {
    const entry = await compactFor('rules', buildRulesSession());
    const rules = ruleCounts(entry.report);
    expect(rules.collapsedPairs).toBeGreaterThan(0);
    expect(rules.truncatedOutputs).toBeGreaterThan(0);
    expect(rules.droppedSystem).toBeGreaterThan(0);
    expect(rules.mergedAssistant).toBeGreaterThan(0);
    const html = renderReportHtml({ transcripts: [entry] });
    expectFaithfulPage(html, [entry]);
    expectCountsAgree(html, entry.report, entry.before, entry.after);
    const cards = cardsOf(html);
    expect(countStatus(cards, 'after', 'truncated')).toBe(rules.truncatedOutputs);
    expect(countStatus(cards, 'after', 'dropped')).toBe(rules.droppedSystem);
  });

  it.each(['compressor', 'rules'] as const)('counts agree on the example session (%s)', async (engine) => {
    const entry = await compactFor(engine, exampleSession());
    const html = renderReportHtml({ transcripts: [entry], sourceName: 'coding-agent-session.openai.json' });
    expectFaithfulPage(html, [entry]);
    expectCountsAgree(html, entry.report, entry.before, entry.after);
    expect(html).toContain('data-outcome="progress"');
    expect(html).toContain('<table class="figures">');
  });

  it('says clearly when a compaction did nothing, and marks every message kept', async () => {
    const entry = await compactFor('compressor', buildCodingSession({ steps: 4 }), {
      contextLength: 200_000,
      force: false,
    });
    expect(entry.report.madeProgress).toBe(false);
    const html = renderReportHtml({ transcripts: [entry] });
    expect(html).toContain('data-outcome="noop"');
    expect(html).toMatch(/No-op — Nothing to compact/);
    expect(html).toContain('No checkpoint was written');
    expectCountsAgree(html, entry.report, entry.before, entry.after);
  });

  it('renders one section per transcript, up to the cap, and says how many were left out', async () => {
    const entries = await Promise.all(
      [4, 8, 12].map((steps) => compactFor('rules', buildCodingSession({ steps }), { contextLength: 4_000 })),
    );
    const html = renderReportHtml({ transcripts: entries, maxTranscripts: 2 });
    expect(html.match(/<section class="transcript"/g)).toHaveLength(2);
    expect(html).toContain('1 more transcript was left out');
    expectFaithfulPage(html, entries.slice(0, 2));
    expect(html).toContain('href="#t1"');
  });

  it('sizes the bars by tokens on one scale for both columns', async () => {
    const entry = await compactFor('compressor', buildCodingSession({ steps: 20 }));
    const html = renderReportHtml({ transcripts: [entry] });
    const bars = [
      ...html.matchAll(/data-tokens="(\d+)"[^>]*>.*?<div class="bar" style="width:([\d.]+)%">/gs),
    ].map((match) => ({ tokens: Number(match[1]), width: Number(match[2]) }));
    expect(bars.length).toBe(entry.before.messages.length + entry.after.messages.length);
    const top = Math.max(...bars.map((bar) => bar.tokens));
    for (const bar of bars) expect(bar.width).toBeCloseTo((100 * bar.tokens) / top, 1);
    expect(Math.max(...bars.map((bar) => bar.width))).toBe(100);
  });

  it('does not mutate its input', async () => {
    const entry = await compactFor('compressor', buildHostileSession());
    const snapshot = JSON.stringify(entry);
    renderReportHtml({ transcripts: [deepFreeze(entry)] });
    expect(JSON.stringify(entry)).toBe(snapshot);
  });
});

const CORPUS = [...corpusFiles('claude-code').slice(0, 2), ...corpusFiles('openai').slice(0, 1)];

describe('renderReportHtml on real corpus transcripts', () => {
  it.each(
    CORPUS.flatMap((file) =>
      (['compressor', 'rules'] as const).map((engine) => [shortName(file), engine, file]),
    ),
  )('%s (%s): every message once, counts agree with the report', async (_name, engine, file) => {
    const transcripts = documentTranscripts(decodeDocument(readCorpusFile(file as string))).slice(0, 2);
    for (const transcript of transcripts) {
      const entry = await compactFor(engine as 'compressor' | 'rules', transcript, { contextLength: 8_000 });
      const html = renderReportHtml({ transcripts: [entry] });
      expectFaithfulPage(html, [entry]);
      expectCountsAgree(html, entry.report, entry.before, entry.after);
    }
  });
});

function noopReport(transcript: Transcript): CompactionReport {
  return {
    engine: 'compressor',
    tokensBefore: { rough: 10 },
    tokensAfter: { rough: 10 },
    messagesBefore: transcript.messages.length,
    messagesAfter: transcript.messages.length,
    pruning: { deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 },
    summary: { source: 'none', calls: 0, tokens: 0, updatedPrevious: false },
    dropped: 0,
    errors: [],
    savings: { tokens: 0, percent: 0 },
    madeProgress: false,
    aborted: false,
    reason: 'below the threshold',
    notes: [],
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
