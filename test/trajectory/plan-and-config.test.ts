import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import type { Message } from '../../src/model/message.js';
import { assistantMessage, systemMessage, toolCall, toolResult, userMessage } from '../../src/testing.js';
import {
  addToAggregate,
  aggregateMetricsJson,
  compressibleWindow,
  createSeededRandom,
  emptyAggregate,
  parseTrajectoryConfig,
  protectedTurns,
  resolveTrajectorySettings,
  sampleIndices,
  snapBoundary,
  type TrajectoryMetrics,
} from '../../src/trajectory/index.js';

const call = toolCall('run', {}, 'k1');
const short: Message[] = [
  systemMessage('s'),
  userMessage('u'),
  assistantMessage('a', call),
  toolResult(call, 'r'),
  assistantMessage('b'),
  userMessage('v'),
];

describe('planning the cut', () => {
  it('classifies protected turns by position, as Hermes does', () => {
    const settings = resolveTrajectorySettings({ protectLastTurns: 1 });
    // The first tool turn (3) lies in the second half of six turns: it counts as tail and pulls the end forward.
    expect(protectedTurns(short, settings)).toEqual([0, 1, 2, 3, 5]);
    expect(compressibleWindow(short, [0, 1, 2, 3, 5])).toBeUndefined();
    expect(compressibleWindow(short, [0, 1, 5])).toEqual({ start: 2, end: 5 });
  });

  it('moves the window start off tool turns', () => {
    expect(compressibleWindow(short, [0, 1, 2, 5])).toEqual({ start: 4, end: 5 });
  });

  it('snaps a boundary forward past tool turns, or back when the end is a tool turn', () => {
    expect(snapBoundary(short, 3, 2, 5)).toBe(4);
    expect(snapBoundary(short, 3, 2, 3)).toBe(2);
    expect(snapBoundary(short, 4, 2, 5)).toBe(4);
    expect(snapBoundary([toolResult('x', 'r'), toolResult('y', 'r')], 1, 0, 1)).toBeUndefined();
  });
});

function described(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (isCondenseError(error)) return error.describe();
    throw error;
  }
  throw new Error('expected an error');
}

describe('configuration files', () => {
  it('reads Hermes sections and names the key of a mistake', () => {
    const config = parseTrajectoryConfig(
      'tokenizer:\n  name: cl100k_base\ncompression:\n  target_max_tokens: 29000\nprotected_turns:\n  first_tool: false\n  last_n_turns: 2\nsummarization:\n  add_summary_notice: true\n',
    );
    expect(config.tokenizer).toBe('cl100k_base');
    expect(config.settings).toEqual({
      targetMaxTokens: 29000,
      protectFirst: { tool: false },
      protectLastN: 2,
      summaryNotice: true,
    });
    // The line of the wrong key, and the key it probably meant.
    expect(described(() => parseTrajectoryConfig('compression:\n  target_max_tokns: 3\n', 'c.yaml'))).toMatch(
      /^c\.yaml:2: compression: .*target_max_tokns.*did you mean "target_max_tokens"/,
    );
    expect(() => parseTrajectoryConfig('compression:\n  target_max_tokens: -3\n')).toThrow(
      /compression\.target_max_tokens/,
    );
    expect(
      described(() =>
        parseTrajectoryConfig(
          'tokenizer: o200k_base\nprocessing:\n  workers: 2\n  per_trajectory_timeout: -1\n',
          'p.yaml',
        ),
      ),
    ).toMatch(/^p\.yaml:4: processing\.per_trajectory_timeout must be/);
  });

  it('reports YAML syntax errors with their line', () => {
    expect(described(() => parseTrajectoryConfig('a: 1\nanchors: [\n  - x', 'p.yaml'))).toMatch(
      /^p\.yaml:\d+: not valid YAML/,
    );
  });

  it('maps ShareGPT role names of anchors to model roles', () => {
    const config = parseTrajectoryConfig('anchors:\n  - role: gpt\n    pattern: "^PLAN"\n    match: all\n');
    expect(config.settings.policy?.anchors).toEqual([{ role: 'assistant', pattern: '^PLAN', match: 'all' }]);
  });
});

describe('sampling', () => {
  it('draws the same sample from the same seed, in file order, without repeats', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0.5, max: 100, noNaN: true }),
        fc.integer(),
        (count, percent, seed) => {
          const first = sampleIndices(count, percent, createSeededRandom(seed));
          expect(sampleIndices(count, percent, createSeededRandom(seed))).toEqual(first);
          expect(first).toHaveLength(
            count === 0 ? 0 : Math.min(count, Math.max(1, Math.floor((count * percent) / 100))),
          );
          expect(new Set(first).size).toBe(first.length);
          expect([...first].sort((a, b) => a - b)).toEqual(first);
          for (const index of first) expect(index >= 0 && index < count).toBe(true);
        },
      ),
    );
  });

  it('gives other samples for other seeds', () => {
    expect(sampleIndices(1000, 10, createSeededRandom(1))).not.toEqual(
      sampleIndices(1000, 10, createSeededRandom(2)),
    );
    expect(sampleIndices(1000, 10, createSeededRandom('a'))).toEqual(
      sampleIndices(1000, 10, createSeededRandom('a')),
    );
  });
});

describe('aggregate metrics', () => {
  const metrics = (
    original: number,
    compressed: number,
    turns: [number, number],
    calls = 1,
  ): TrajectoryMetrics => ({
    originalTokens: original,
    compressedTokens: compressed,
    tokensSaved: original - compressed,
    compressionRatio: compressed / original,
    originalTurns: turns[0],
    compressedTurns: turns[1],
    turnsRemoved: turns[0] - turns[1],
    wasCompressed: compressed !== original,
    stillOverLimit: false,
    skippedUnderTarget: compressed === original,
    summarizationApiCalls: calls,
    summarizationErrors: 0,
    strategy: compressed === original ? 'none' : 'single-pass',
    digestedOutputs: 0,
    summaryClipped: false,
    anchors: [],
    tokenizer: 'chars',
  });

  it("fills Hermes' blocks with its rounding and denominators", () => {
    const counts = emptyAggregate();
    addToAggregate(counts, 'compressed', metrics(1000, 400, [20, 9]));
    addToAggregate(counts, 'compressed', metrics(3000, 1000, [40, 11], 2));
    addToAggregate(counts, 'under-target', metrics(500, 500, [5, 5], 0));
    addToAggregate(counts, 'timed-out', undefined);
    const json = aggregateMetricsJson(counts, { startTime: 'a', endTime: 'b', durationSeconds: 1.234 });
    expect(json).toMatchObject({
      summary: {
        total_trajectories: 4,
        trajectories_compressed: 2,
        trajectories_skipped_under_target: 1,
        trajectories_failed: 1,
        trajectories_timed_out: 1,
        compression_rate: 0.5,
      },
      tokens: { total_before: 4500, total_after: 1900, total_saved: 2600, overall_compression_ratio: 0.4222 },
      turns: { total_before: 65, total_after: 25, total_removed: 40 },
      averages: {
        avg_compression_ratio: 0.3667,
        avg_tokens_saved_per_compressed: 1300,
        avg_turns_removed_per_compressed: 20,
      },
      summarization: { total_api_calls: 3, total_errors: 0, success_rate: 1 },
      processing: { start_time: 'a', end_time: 'b', duration_seconds: 1.23 },
    });
    expect(
      aggregateMetricsJson(emptyAggregate(), { startTime: '', endTime: '', durationSeconds: 0 })['averages'],
    ).toEqual({
      avg_compression_ratio: 1,
      avg_tokens_saved_per_compressed: 0,
      avg_turns_removed_per_compressed: 0,
    });
  });
});
