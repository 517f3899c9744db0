import { describe, expect, it } from 'vitest';
import type { CompactionReport } from '../../src/engines/compaction-report.js';
import { describeCompaction } from '../../src/engines/feedback.js';

function report(overrides: Partial<CompactionReport>): CompactionReport {
  return {
    engine: 'compressor',
    tokensBefore: { rough: 10_000 },
    tokensAfter: { rough: 4_000 },
    messagesBefore: 80,
    messagesAfter: 20,
    pruning: { deduplicated: 0, digested: 3, argumentsShrunk: 0, imagesStripped: 0 },
    summary: { source: 'extractive', calls: 0, tokens: 900, updatedPrevious: false },
    dropped: 60,
    errors: [],
    savings: { tokens: 6_000, percent: 60 },
    madeProgress: true,
    aborted: false,
    notes: [],
    ...overrides,
  };
}

describe('manual compaction feedback', () => {
  it('gives a headline and a token line for a normal pass', () => {
    const feedback = describeCompaction(report({}));
    expect(feedback.headline).toBe('Compacted: 80 → 20 messages');
    expect(feedback.tokenLine).toBe('Request size: ~10,000 → ~4,000 tokens (-60.0 %)');
    expect(feedback.note).toBeUndefined();
    expect(feedback.noop).toBe(false);
  });

  it('keeps the engine notes apart, since none ends in punctuation', () => {
    const feedback = describeCompaction(
      report({
        notes: ['3 artifacts left out to fit 40 tokens', 'squeezed (level 1): less was kept verbatim'],
      }),
    );
    expect(feedback.note).toBe(
      '3 artifacts left out to fit 40 tokens; squeezed (level 1): less was kept verbatim',
    );
  });

  it('detects a no-op and says the size is unchanged', () => {
    const feedback = describeCompaction(
      report({
        tokensAfter: { rough: 10_000 },
        messagesAfter: 80,
        dropped: 0,
        savings: { tokens: 0, percent: 0 },
        madeProgress: false,
      }),
    );
    expect(feedback.noop).toBe(true);
    expect(feedback.headline).toBe('Nothing to compact: 80 messages');
    expect(feedback.tokenLine).toBe('Request size: ~10,000 tokens (unchanged)');
  });

  it('explains that fewer messages can still mean more tokens', () => {
    const feedback = describeCompaction(
      report({ tokensAfter: { rough: 10_500 }, savings: { tokens: -500, percent: -5 } }),
    );
    expect(feedback.tokenLine).toContain('(+5.0 %)');
    expect(feedback.note).toMatch(/Fewer messages can still mean more tokens/);
  });

  it('says when the summary failed and why, for aborts, fallbacks and extractive recoveries', () => {
    const aborted = describeCompaction(
      report({ aborted: true, madeProgress: false, errors: ['auth failure on openai'] }),
    );
    expect(aborted.headline).toBe('Compaction aborted: 80 messages kept unchanged');
    expect(aborted.note).toMatch(/no messages were removed.*auth failure/);
    const fallback = describeCompaction(
      report({
        summary: { source: 'fallback-marker', calls: 0, tokens: 40, updatedPrevious: false },
        errors: ['boom'],
      }),
    );
    expect(fallback.fallbackUsed).toBe(true);
    expect(fallback.note).toMatch(/60 message\(s\) were replaced by a marker.*boom/);
    const recovered = describeCompaction(report({ errors: ['main model timed out'] }));
    expect(recovered.note).toMatch(/built from the transcript itself/);
  });

  it('keeps the engine notes after an explanation that comes first, so no loss goes unsaid', () => {
    const feedback = describeCompaction(
      report({
        tokensAfter: { rough: 10_500 },
        savings: { tokens: -500, percent: -5 },
        notes: ['3 lines (Files Changed 3) left out to fit 118 tokens'],
      }),
    );
    expect(feedback.note).toMatch(
      /^Fewer messages can still mean more tokens: .*\. Also: 3 lines \(Files Changed 3\) left out/,
    );
  });

  it('prefers the exact count when one was configured', () => {
    const feedback = describeCompaction(
      report({ tokensBefore: { rough: 10_000, exact: 11_000 }, tokensAfter: { rough: 4_000, exact: 4_400 } }),
    );
    expect(feedback.tokenLine).toBe('Request size: 11,000 → 4,400 tokens (-60.0 %)');
  });
});
