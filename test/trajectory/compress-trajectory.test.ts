import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import { createSummarizerChain } from '../../src/summarizer/chain/summarizer-chain.js';
import {
  assistantMessage,
  createMockSummarizer,
  systemMessage,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing.js';
import {
  compressTrajectory,
  HERMES_SUMMARY_PREFIX,
  TRAJECTORY_SUMMARY_KIND,
  toCompressionMetricsJson,
} from '../../src/trajectory/index.js';
import { parseCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { agentRun, charCounter, filler, toolPairsIntact } from './helpers.js';

const SUMMARY_BODY = 'S'.repeat(60);

/** A chain whose only summarizer answers a fixed 60-character body. */
function fixedChain(body = SUMMARY_BODY) {
  return createSummarizerChain({
    extractive: createMockSummarizer({ replies: [body], kind: 'extractive', name: 'fixed' }),
    now: () => 0,
  });
}

function tokensOf(messages: readonly Message[]): number[] {
  const counter = charCounter();
  return messages.map((message) => counter.countMessage(message));
}

/** Hermes' greedy end, recomputed independently: first index where the sum from `start` reaches `need`. */
function greedyEnd(tokens: readonly number[], start: number, end: number, need: number): number {
  let sum = 0;
  for (let index = start; index < end; index++) {
    sum += tokens[index] as number;
    if (sum >= need) return index + 1;
  }
  return end;
}

describe('compressTrajectory: the Hermes algorithm', () => {
  const run = agentRun({ steps: 12, output: 500 });
  const tokens = tokensOf(run.messages);
  const total = tokens.reduce((sum, value) => sum + value, 0);

  it('returns a trajectory within the target unchanged, the very same object', async () => {
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: total,
      summaryTargetTokens: 10,
    });
    expect(result.transcript).toBe(run);
    expect(result.outcome).toBe('under-target');
    expect(result.metrics).toMatchObject({
      originalTokens: total,
      compressedTokens: total,
      compressionRatio: 1,
      skippedUnderTarget: true,
      wasCompressed: false,
      stillOverLimit: false,
      summarizationApiCalls: 0,
    });
    expect(toCompressionMetricsJson(result.metrics)['compression_region']).toEqual({
      start_idx: -1,
      end_idx: -1,
      turns_count: 0,
    });
  });

  it('summarizes from the start of the middle only as far as the savings target needs', async () => {
    const target = Math.floor(total * 0.75);
    const summaryTarget = 100;
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: target,
      summaryTargetTokens: summaryTarget,
      summarizer: fixedChain(),
    });
    // Head: system 0, user 1, first assistant 2, first tool 3; tail: the last 4 turns.
    const n = run.messages.length;
    const need = total - target + summaryTarget;
    let end = greedyEnd(tokens, 4, n - 4, need);
    while (run.messages[end]?.role === 'tool') end++;
    expect(result.metrics.region).toEqual({ start: 4, end });
    expect(end).toBeLessThan(n - 4);
    const out = result.transcript.messages;
    expect(out.slice(0, 4)).toEqual(run.messages.slice(0, 4));
    for (let index = 0; index < 4; index++) expect(out[index]).toBe(run.messages[index]);
    const summary = out[4] as Message;
    expect(summary.role).toBe('user');
    expect(messageText(summary)).toBe(`${HERMES_SUMMARY_PREFIX} ${SUMMARY_BODY}`);
    expect(summary.meta?.condense).toMatchObject({ kind: TRAJECTORY_SUMMARY_KIND, source: 'extractive' });
    // Everything after the region is kept verbatim, later middle turns included.
    expect(out.slice(5)).toEqual(run.messages.slice(end));
    out.slice(5).forEach((message, index) => {
      expect(message).toBe(run.messages[end + index]);
    });
    const summaryTokens = `${HERMES_SUMMARY_PREFIX} ${SUMMARY_BODY}`.length;
    const removed = tokens.slice(4, end).reduce((sum, value) => sum + value, 0);
    expect(result.metrics).toMatchObject({
      originalTokens: total,
      compressedTokens: total - removed + summaryTokens,
      tokensSaved: removed - summaryTokens,
      originalTurns: n,
      compressedTurns: n - (end - 4) + 1,
      turnsRemoved: end - 4 - 1,
      wasCompressed: true,
      stillOverLimit: false,
      skippedUnderTarget: false,
      strategy: 'single-pass',
      summarySource: 'extractive',
    });
    expect(result.metrics.compressionRatio).toBeCloseTo((total - removed + summaryTokens) / total, 10);
    expect(result.metrics.compressedTokens).toBeLessThanOrEqual(target);
  });

  it('never ends the region between a tool call and its result', async () => {
    const n = run.messages.length;
    // Pick a target whose greedy end lands exactly on a tool turn.
    let chosen: { target: number; raw: number } | undefined;
    for (let target = total - 50; target > 2000 && chosen === undefined; target -= 37) {
      const raw = greedyEnd(tokens, 4, n - 4, total - target + 50);
      if (run.messages[raw]?.role === 'tool') chosen = { target, raw };
    }
    expect(chosen).toBeDefined();
    const { target, raw } = chosen as { target: number; raw: number };
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: target,
      summaryTargetTokens: 50,
      summarizer: fixedChain(),
    });
    expect(result.metrics.region?.end).toBe(raw + 1);
    expect(run.messages[result.metrics.region?.end ?? 0]?.role).not.toBe('tool');
    expect(toolPairsIntact(result.transcript.messages)).toBe(true);
  });

  it('keeps the first turn of each role and the last N turns verbatim', async () => {
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 1000,
      summaryTargetTokens: 100,
      protectLastTurns: 6,
      summarizer: fixedChain(),
    });
    const out = result.transcript.messages;
    for (const index of [0, 1, 2, 3]) expect(out).toContain(run.messages[index]);
    for (const message of run.messages.slice(-6)) expect(out).toContain(message);
    expect(out.slice(-6)).toEqual(run.messages.slice(-6));
  });

  it('says stillOverLimit when the protected turns alone exceed the target', async () => {
    const heavy = agentRun({ steps: 6, output: 3000 });
    const result = await compressTrajectory(heavy, {
      counter: charCounter(),
      targetMaxTokens: 4000,
      summaryTargetTokens: 100,
      summarizer: fixedChain(),
    });
    expect(result.outcome).toBe('compressed');
    expect(result.metrics.stillOverLimit).toBe(true);
    expect(result.metrics.compressedTokens).toBeGreaterThan(4000);
    expect(result.metrics.note).toMatch(/one pass was not enough/);
    expect(toCompressionMetricsJson(result.metrics)['still_over_limit']).toBe(true);
  });

  it('reaches the target with the escalate strategy and reports it', async () => {
    const heavy = agentRun({ steps: 6, output: 3000 });
    const result = await compressTrajectory(heavy, {
      counter: charCounter(),
      targetMaxTokens: 4000,
      summaryTargetTokens: 100,
      strategy: 'escalate',
      summarizer: fixedChain(),
    });
    expect(result.metrics.stillOverLimit).toBe(false);
    expect(result.metrics.compressedTokens).toBeLessThanOrEqual(4000);
    expect(result.metrics.strategy).toBe('digest-then-summarize');
    expect(result.metrics.digestedOutputs).toBeGreaterThan(0);
    expect(toolPairsIntact(result.transcript.messages)).toBe(true);
    const digested = result.transcript.messages.filter((message) =>
      message.parts.some(
        (part) => part.type === 'tool-result' && JSON.stringify(part).includes('[output condensed]'),
      ),
    );
    expect(digested.length).toBeGreaterThan(0);
  });

  it('folds the first assistant and tool turns into the summary as the last escalation rung', async () => {
    const call = toolCall('read_file', { path: '/srv/app/big.log' }, 'big');
    const messages = [
      systemMessage('s'),
      userMessage('Read the log.'),
      assistantMessage('Reading.', call),
      toolResult(call, filler(4000, 'log')),
      assistantMessage(filler(2000, 'analysis')),
      userMessage('thanks'),
    ];
    const options = {
      counter: charCounter(),
      targetMaxTokens: 1000,
      summaryTargetTokens: 100,
      protectLastTurns: 1,
      summarizer: fixedChain(),
    };
    // The first tool turn lies in the second half, so Hermes' positional rule leaves no middle at all.
    expect((await compressTrajectory(messages, options)).outcome).toBe('not-compressible');
    const result = await compressTrajectory(messages, { ...options, strategy: 'escalate' });
    expect(result.outcome).toBe('compressed');
    expect(result.metrics.region).toEqual({ start: 2, end: 5 });
    expect(result.metrics.note).toMatch(/first assistant and tool turns were folded/);
    expect(result.metrics.compressedTokens).toBeLessThanOrEqual(1000);
    expect(result.transcript.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'user',
      'user',
    ]);
  });

  it('clips the summary to the room left when escalating and the summary is too long', async () => {
    const result = await compressTrajectory(agentRun({ steps: 8, output: 600 }), {
      counter: charCounter(),
      targetMaxTokens: 1500,
      summaryTargetTokens: 200,
      strategy: 'escalate',
      summarizer: fixedChain(filler(5000, 'summary')),
    });
    expect(result.metrics.summaryClipped).toBe(true);
    expect(result.metrics.compressedTokens).toBeLessThanOrEqual(1500);
    const summary = result.transcript.messages.find((message) => message.meta?.condense !== undefined);
    expect(messageText(summary as Message)).toMatch(/summary clipped to fit the token budget\]$/);
  });

  it('leaves a trajectory with no middle alone and says why', async () => {
    const short = {
      messages: [systemMessage(filler(500)), userMessage(filler(500)), userMessage(filler(500))],
    };
    const result = await compressTrajectory(short, {
      counter: charCounter(),
      targetMaxTokens: 100,
      summaryTargetTokens: 10,
    });
    expect(result.transcript).toBe(short);
    expect(result.outcome).toBe('not-compressible');
    expect(result.metrics.stillOverLimit).toBe(true);
  });

  it('writes a condense checkpoint that names its source with the condense style', async () => {
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 2000,
      summaryTargetTokens: 100,
      summaryStyle: 'condense',
      summarizer: fixedChain(),
    });
    const summary = result.transcript.messages[4] as Message;
    expect(parseCheckpoint(messageText(summary))).toMatchObject({
      author: 'condense',
      source: 'extractive',
      body: SUMMARY_BODY,
    });
  });

  it('recognises its own Hermes-style summary as a checkpoint on a later pass', async () => {
    const first = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 4000,
      summaryTargetTokens: 100,
      summarizer: fixedChain(),
    });
    const summary = first.transcript.messages[4] as Message;
    expect(parseCheckpoint(messageText(summary))).toMatchObject({
      author: 'hermes-legacy',
      body: SUMMARY_BODY,
    });
    const mock = createMockSummarizer({ replies: ['second pass'], kind: 'extractive' });
    await compressTrajectory(first.transcript, {
      counter: charCounter(),
      targetMaxTokens: 1500,
      summaryTargetTokens: 100,
      summarizer: createSummarizerChain({ extractive: mock, now: () => 0 }),
    });
    expect(mock.requests[0]?.previousSummary).toBe(SUMMARY_BODY);
    expect(mock.requests[0]?.messages.some((message) => message === summary)).toBe(false);
  });

  it('appends the notice to the system turn only when asked', async () => {
    const plain = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 100,
      summarizer: fixedChain(),
    });
    expect(plain.transcript.messages[0]).toBe(run.messages[0]);
    const noticed = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 100,
      summaryNotice: true,
      summarizer: fixedChain(),
    });
    expect(messageText(noticed.transcript.messages[0] as Message)).toMatch(
      /^You are a careful agent\.\n\nSome earlier turns/,
    );
    expect(noticed.metrics.compressedTokens).toBe(
      tokensOf(noticed.transcript.messages).reduce((sum, value) => sum + value, 0),
    );
  });

  it('uses the extractive summarizer when no summarizer is given', async () => {
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 4000,
      summaryTargetTokens: 300,
    });
    expect(result.metrics.summarySource).toBe('extractive');
    expect(messageText(result.transcript.messages[4] as Message)).toContain('/srv/app/file');
  });

  it('does not mutate its input', async () => {
    const copy = structuredClone(run);
    await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 2000,
      summaryTargetTokens: 100,
      strategy: 'escalate',
    });
    expect(run).toEqual(copy);
  });

  it('accepts a bare message array', async () => {
    const result = await compressTrajectory(run.messages, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 100,
    });
    expect(result.outcome).toBe('compressed');
    expect(result.transcript.messages.length).toBeLessThan(run.messages.length);
  });

  it('rejects inconsistent settings', async () => {
    await expect(
      compressTrajectory(run, { counter: charCounter(), targetMaxTokens: 100, summaryTargetTokens: 100 }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
