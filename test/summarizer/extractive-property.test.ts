import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { artifactCoverage, extractArtifacts } from '../../src/inspect/artifacts.js';
import { CHECKPOINT_SECTIONS, createExtractiveSummarizer } from '../../src/summarizer/index.js';
import type { SummaryRequest } from '../../src/summarizer/summarizer.js';
import { messages, optionalText } from './generators.js';
import { counter } from './helpers.js';

const HEADINGS = CHECKPOINT_SECTIONS.map((section) => `## ${section.title}`);

const requests: fc.Arbitrary<SummaryRequest> = fc
  .record({
    messages,
    previousSummary: optionalText,
    focusTopic: optionalText,
    latestUserRequest: optionalText,
    targetTokens: fc.integer({ min: 1, max: 5000 }),
  })
  .map(({ previousSummary, focusTopic, latestUserRequest, ...rest }) => ({
    ...rest,
    counter,
    ...(previousSummary === undefined ? {} : { previousSummary }),
    ...(focusTopic === undefined ? {} : { focusTopic }),
    ...(latestUserRequest === undefined ? {} : { latestUserRequest }),
  }));

describe('extractive summarizer properties', () => {
  const summarizer = createExtractiveSummarizer();

  it('never throws, writes headings in template order (Current Request always), deterministically', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const first = await summarizer.summarize(request);
        const headings = first.text.split('\n').filter((line) => line.startsWith('## '));
        expect(headings[0]).toBe('## Current Request');
        expect(headings).toEqual(HEADINGS.filter((heading) => headings.includes(heading)));
        expect(first.source).toBe('extractive');
        const second = await summarizer.summarize(request);
        expect(second.text).toBe(first.text);
      }),
      { numRuns: 300 },
    );
  });

  it('fits the target unless it says it could not', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const result = await summarizer.summarize(request);
        const over = counter.countText(result.text) > request.targetTokens;
        expect(over).toBe((result.notes ?? []).some((note) => note.includes('over the')));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every artifact when the budget is unlimited', async () => {
    const raw = createExtractiveSummarizer({ redact: false, maxInputShare: Number.POSITIVE_INFINITY });
    await fc.assert(
      fc.asyncProperty(messages, async (turns) => {
        const result = await raw.summarize({ messages: turns, targetTokens: 1_000_000, counter });
        const coverage = artifactCoverage(extractArtifacts(turns), result.text);
        expect(coverage.byKind).toMatchObject({
          paths: { missing: [] },
          urls: { missing: [] },
          commands: { missing: [] },
          errorLines: { missing: [] },
          toolNames: { missing: [] },
        });
      }),
      { numRuns: 300 },
    );
  });
});
