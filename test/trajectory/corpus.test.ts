import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, getCodec } from '../../src/codecs/registry.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { createTokenCounter } from '../../src/tokens/create-token-counter.js';
import {
  compressTrajectory,
  encodeTrajectoryEntry,
  HERMES_SUMMARY_PREFIX,
  toCompressionMetricsJson,
} from '../../src/trajectory/index.js';
import { CORPUS_DIR, FULL_CORPUS, readCorpusFile } from '../support/corpus.js';

const TAU = join(CORPUS_DIR, 'openai', 'sierra-research__tau-bench__gpt-4o-airline.json');
const HERMES = join(CORPUS_DIR, 'sharegpt', 'ruanjianershu__HermesWith__trajectory_samples.jsonl');

/** tau-bench's OpenAI runs as Hermes ShareGPT entries, made with our own codecs (what a user would do). */
function derivedShareGpt(): { line: string; source: Transcript }[] {
  const sharegpt = getCodec('sharegpt');
  return documentTranscripts(decodeDocument(readCorpusFile(TAU))).map((transcript) => {
    const entry = sharegpt.encode({
      messages: transcript.messages,
      meta: {
        codec: {
          sharegpt: {
            fields: {
              conversations: null,
              timestamp: '2024-05-15T15:00:00',
              model: 'gpt-4o',
              completed: true,
            },
          },
        },
      },
    });
    return { line: JSON.stringify(entry), source: transcript };
  });
}

type Turn = { from: string; value: string };

describe('trajectory compression on real runs', () => {
  it.each(['single-pass', 'escalate'] as const)(
    'compresses every tau-bench run (%s) into valid, smaller ShareGPT entries',
    async (strategy) => {
      const counter = await createTokenCounter('o200k_base');
      const sharegpt = getCodec('sharegpt');
      const target = 2000;
      const entries = derivedShareGpt();
      expect(entries).toHaveLength(FULL_CORPUS ? 200 : 3);
      let compressed = 0;
      let stillOver = 0;
      for (const { line } of entries) {
        const wire = JSON.parse(line) as { conversations: Turn[] };
        const decoded = sharegpt.decode(wire);
        expect(decoded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
        const result = await compressTrajectory(decoded.value, {
          counter,
          targetMaxTokens: target,
          summaryTargetTokens: 250,
          strategy,
        });
        const out = encodeTrajectoryEntry(result.transcript, 'sharegpt', {
          ...(result.metrics.wasCompressed ? { metrics: toCompressionMetricsJson(result.metrics) } : {}),
        }) as {
          conversations: Turn[];
          compression_metrics?: Record<string, unknown>;
          model: string;
          completed: boolean;
        };
        // The output is a Hermes entry again: same envelope, known speakers, tool calls paired with their results.
        expect(out.model).toBe('gpt-4o');
        expect(out.completed).toBe(true);
        const again = sharegpt.decode(JSON.parse(JSON.stringify(out)));
        expect(again.issues).toEqual([]);
        expect(
          verifyTranscript(again.value, { provider: 'openai' }).filter((violation) =>
            violation.code.includes('tool'),
          ),
        ).toEqual([]);
        for (const turn of out.conversations) expect(['system', 'human', 'gpt', 'tool']).toContain(turn.from);
        if (result.outcome !== 'compressed') {
          if (result.outcome === 'under-target')
            expect(result.metrics.originalTokens).toBeLessThanOrEqual(target);
          else expect(result.metrics.stillOverLimit).toBe(true);
          expect(out.conversations).toEqual(wire.conversations);
          continue;
        }
        compressed++;
        const summaries = out.conversations.filter((turn) => turn.value.startsWith(HERMES_SUMMARY_PREFIX));
        expect(summaries).toHaveLength(1);
        expect(summaries[0]?.from).toBe('human');
        // System prompt, task and the last turns survive verbatim.
        expect(out.conversations[0]).toEqual(wire.conversations[0]);
        expect(out.conversations.find((turn) => turn.from === 'human')).toEqual(
          wire.conversations.find((turn) => turn.from === 'human'),
        );
        if (strategy === 'single-pass')
          expect(out.conversations.slice(-4)).toEqual(wire.conversations.slice(-4));
        expect(out.compression_metrics?.['was_compressed']).toBe(true);
        expect(result.metrics.compressedTokens).toBe(counter.countTranscript(result.transcript));
        expect(result.metrics.compressedTokens).toBeLessThan(result.metrics.originalTokens);
        if (result.metrics.stillOverLimit) stillOver++;
        else expect(result.metrics.compressedTokens).toBeLessThanOrEqual(target);
      }
      expect(compressed).toBeGreaterThan(FULL_CORPUS ? 150 : 1);
      if (strategy === 'escalate') expect(stillOver).toBe(0);
    },
  );

  it('leaves the real Hermes trajectories valid when compressed to a tiny target', async () => {
    const counter = await createTokenCounter('o200k_base');
    const document = decodeDocument(readCorpusFile(HERMES));
    for (const transcript of documentTranscripts(document)) {
      const result = await compressTrajectory(transcript, {
        counter,
        targetMaxTokens: 300,
        summaryTargetTokens: 50,
      });
      const entry = encodeTrajectoryEntry(result.transcript, 'sharegpt') as {
        conversations: Turn[];
        model?: string;
      };
      expect(getCodec('sharegpt').decode(entry).issues).toEqual([]);
      expect(entry.model).toBeDefined();
      // Three turns (system, human, gpt) are all protected: nothing can be cut, and it says so.
      expect(result.outcome === 'under-target' || result.outcome === 'not-compressible').toBe(true);
    }
  });
});
