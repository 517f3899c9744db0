import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import type { ToolCallPart } from '../../src/model/part.js';
import { createSummarizerChain } from '../../src/summarizer/chain/summarizer-chain.js';
import { assistantMessage, createMockSummarizer, systemMessage, userMessage } from '../../src/testing.js';
import { compressTrajectory, protectedTurns, resolveTrajectorySettings } from '../../src/trajectory/index.js';
import { charCounter, filler, toolPairsIntact } from './helpers.js';

/** One step of a random run: a user turn, or an assistant turn with its calls and their results. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 300 }) }),
  fc.record({
    kind: fc.constant('assistant' as const),
    size: fc.integer({ min: 0, max: 200 }),
    calls: fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 3 }),
    grouped: fc.boolean(),
  }),
);

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function build(steps: readonly Step[], withSystem: boolean): Message[] {
  const messages: Message[] = withSystem ? [systemMessage('system prompt')] : [];
  steps.forEach((item, index) => {
    if (item.kind === 'user') {
      messages.push(userMessage(filler(item.size, `u${index}`)));
      return;
    }
    const calls: ToolCallPart[] = item.calls.map((_, call) => ({
      type: 'tool-call',
      id: `c${index}-${call}`,
      name: 'tool',
      arguments: '{}',
    }));
    messages.push(assistantMessage(item.size === 0 ? undefined : filler(item.size, `a${index}`), ...calls));
    const results = item.calls.map((size, call) => ({
      type: 'tool-result' as const,
      callId: `c${index}-${call}`,
      content: [{ type: 'text' as const, text: filler(size, `t${index}`) }],
    }));
    if (results.length === 0) return;
    if (item.grouped) messages.push({ role: 'tool', parts: results });
    else for (const result of results) messages.push({ role: 'tool', parts: [result] });
  });
  return messages;
}

const chain = () =>
  createSummarizerChain({
    extractive: createMockSummarizer({ replies: ['summary of the middle'], kind: 'extractive' }),
    now: () => 0,
  });

describe('compressTrajectory: invariants over random runs', () => {
  it('keeps tool pairs whole, protected turns verbatim and its token figures honest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 60, max: 6000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('single-pass' as const, 'escalate' as const),
        async (steps, withSystem, target, protectLast, strategy) => {
          const messages = build(steps, withSystem);
          const counter = charCounter();
          const settings = {
            targetMaxTokens: target,
            summaryTargetTokens: 50,
            protectLastTurns: protectLast,
            strategy,
          };
          const result = await compressTrajectory(messages, { ...settings, counter, summarizer: chain() });
          const out = result.transcript.messages;
          const total = messages.reduce((sum, message) => sum + counter.countMessage(message), 0);
          expect(result.metrics.originalTokens).toBe(total);
          expect(result.metrics.compressedTokens).toBe(
            out.reduce((sum, message) => sum + counter.countMessage(message), 0),
          );
          expect(result.metrics.compressedTurns).toBe(out.length);
          expect(result.metrics.stillOverLimit).toBe(
            result.outcome !== 'under-target' && result.metrics.compressedTokens > target,
          );
          expect(toolPairsIntact(out)).toBe(toolPairsIntact(messages));
          if (result.outcome !== 'compressed') {
            expect(result.transcript.messages).toBe(messages);
            return;
          }
          const region = result.metrics.region;
          expect(region).toBeDefined();
          const { start, end } = region as { start: number; end: number };
          expect(messages[start]?.role).not.toBe('tool');
          if (end < messages.length) expect(messages[end]?.role).not.toBe('tool');
          expect(out[start]?.role).toBe('user');
          expect(out).toHaveLength(messages.length - (end - start) + 1);
          if (result.metrics.strategy === 'single-pass') {
            for (let index = 0; index < start; index++) expect(out[index]).toBe(messages[index]);
            for (let index = end; index < messages.length; index++)
              expect(out[index - end + start + 1]).toBe(messages[index]);
            for (const kept of protectedTurns(messages, resolveTrajectorySettings(settings)))
              expect(out).toContain(messages[kept]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
