import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { isCheckpointMessage } from '../../src/transforms/checkpoint-text.js';
import { dedupeToolResults } from '../../src/transforms/dedupe-tool-results.js';
import { digestToolResults } from '../../src/transforms/digest-tool-results.js';
import { findBoundaries } from '../../src/transforms/find-boundaries.js';
import { findLatestUserRequest } from '../../src/transforms/find-latest-user-request.js';
import { pruneToolOutputs } from '../../src/transforms/prune-tool-outputs.js';
import { sanitizeToolPairs } from '../../src/transforms/sanitize-tool-pairs.js';
import { shrinkToolArguments } from '../../src/transforms/shrink-tool-arguments.js';
import { stripHistoricalImages, stripImages } from '../../src/transforms/strip-images.js';
import { brokenTranscriptArb, transcriptArb } from './arbitraries.js';
import { deepFreeze, gainedViolations, PAIR_RULES, toolPairs, violationCounts } from './support.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 150) };
const counter = createRoughCounter();

/** Every message the transform did not change is the same object; changed ones are allowed and keep their role. */
function expectOnlyAllowedChanges(
  input: readonly Message[],
  output: readonly Message[],
  allowed: (index: number, message: Message) => boolean,
): void {
  expect(output).toHaveLength(input.length);
  input.forEach((message, index) => {
    const next = output[index] as Message;
    if (next === message) return;
    expect(allowed(index, message)).toBe(true);
    expect(next.role).toBe(message.role);
    expect(next.parts).toHaveLength(message.parts.length);
    expect(next.parts).not.toEqual(message.parts);
  });
}

function frozen(messages: Message[]): readonly Message[] {
  return deepFreeze(messages);
}

const indexIn = (messages: readonly Message[]) => fc.nat({ max: messages.length });

describe('transform properties over generated transcripts', () => {
  it('dedupeToolResults is pure, changes only old tool messages, keeps pairs valid, and is idempotent', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((m) =>
          fc.tuple(fc.constant(m), indexIn(m), fc.constantFrom('newest', 'earliest')),
        ),
        ([messages, protectFrom, keep]) => {
          const input = frozen(messages);
          const out = dedupeToolResults(input, { protectFrom, keep: keep as 'newest' | 'earliest' });
          expectOnlyAllowedChanges(
            input,
            out.messages,
            (index, message) => index < protectFrom && message.role === 'tool',
          );
          expect(out.references).toHaveLength(out.deduplicated);
          expect(gainedViolations(input, out.messages)).toEqual([]);
          expect(
            dedupeToolResults(out.messages, { protectFrom, keep: keep as 'newest' | 'earliest' })
              .deduplicated,
          ).toBe(0);
        },
      ),
      RUNS,
    );
  });

  it('digestToolResults is pure, changes only tool messages before the boundary, and is idempotent', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((m) => fc.tuple(fc.constant(m), indexIn(m))),
        ([messages, before]) => {
          const input = frozen(messages);
          const out = digestToolResults(input, { before });
          expectOnlyAllowedChanges(
            input,
            out.messages,
            (index, message) => index < before && message.role === 'tool',
          );
          expect(gainedViolations(input, out.messages)).toEqual([]);
          const again = digestToolResults(out.messages, { before });
          expect(again.messages).toBe(out.messages);
        },
      ),
      RUNS,
    );
  });

  it('shrinkToolArguments keeps arguments valid JSON and only shortens old calls', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((m) => fc.tuple(fc.constant(m), indexIn(m))),
        ([messages, before]) => {
          const input = frozen(messages);
          const out = shrinkToolArguments(input, { before });
          expectOnlyAllowedChanges(
            input,
            out.messages,
            (index, message) => index < before && message.role === 'assistant',
          );
          out.messages.forEach((message, index) => {
            message.parts.forEach((part, partIndex) => {
              const old = input[index]?.parts[partIndex];
              if (part === old || part.type !== 'tool-call' || old?.type !== 'tool-call') return;
              expect(() => JSON.parse(part.arguments)).not.toThrow();
              expect(part.arguments.length).toBeLessThan(old.arguments.length);
              expect(part.id).toBe(old.id);
            });
          });
          expect(gainedViolations(input, out.messages)).toEqual([]);
          expect(shrinkToolArguments(out.messages, { before }).messages).toBe(out.messages);
        },
      ),
      RUNS,
    );
  });

  it('stripImages removes every old image but the latest request’s, and nothing else', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((m) => fc.tuple(fc.constant(m), indexIn(m))),
        ([messages, before]) => {
          const input = frozen(messages);
          const out = stripImages(input, { before });
          const latest = findLatestUserRequest(input);
          expectOnlyAllowedChanges(input, out.messages, (index) => index < before && index !== latest);
          const images = (list: readonly Message[]) =>
            JSON.stringify(list).split('"type":"image"').length - 1;
          expect(images(input) - images(out.messages)).toBe(out.stripped);
          out.messages.forEach((message, index) => {
            if (index < before && index !== latest)
              expect(JSON.stringify(message)).not.toContain('"type":"image"');
          });
          expect(gainedViolations(input, out.messages)).toEqual([]);
          const historical = stripHistoricalImages(input);
          expect(gainedViolations(input, historical.messages)).toEqual([]);
          expect(historical.messages).toHaveLength(input.length);
        },
      ),
      RUNS,
    );
  });

  it('pruneToolOutputs never digests or shrinks the protected tail and keeps pairs valid', () => {
    fc.assert(
      fc.property(
        transcriptArb,
        fc.integer({ min: 1, max: 25 }),
        fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
        (messages, protectLastN, protectTailTokens) => {
          const input = frozen(messages);
          const out = pruneToolOutputs(input, {
            counter,
            protectLastN,
            ...(protectTailTokens === undefined ? {} : { protectTailTokens }),
          });
          expect(out.boundary).toBeGreaterThanOrEqual(0);
          expect(out.boundary).toBeLessThanOrEqual(input.length);
          expect(input[out.boundary]?.role).not.toBe('tool');
          expectOnlyAllowedChanges(input, out.messages, () => true);
          for (let index = out.boundary; index < input.length; index++) {
            const next = out.messages[index] as Message;
            if (next === input[index]) continue;
            // In the protected tail only deduplication may act.
            expect(JSON.stringify(next)).toContain('[duplicate output]');
            expect(next.role).toBe('tool');
          }
          expect(gainedViolations(input, out.messages)).toEqual([]);
          const again = pruneToolOutputs(out.messages, {
            counter,
            protectLastN,
            ...(protectTailTokens === undefined ? {} : { protectTailTokens }),
          });
          if (again.boundary === out.boundary) expect(again.messages).toBe(out.messages);
        },
      ),
      RUNS,
    );
  });

  it('findBoundaries keeps system prompts in the head, tool groups whole and the latest request out of the middle', () => {
    fc.assert(
      fc.property(
        transcriptArb,
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 0, max: 2 }),
        (messages, tailTokenBudget, protectFirstN, protectLastN, compactionCount) => {
          const input = frozen(messages);
          const pruned = pruneToolOutputs(input, { counter, protectLastN }).messages;
          for (const list of [input, pruned]) {
            const found = findBoundaries(list, {
              counter,
              tailTokenBudget,
              protectFirstN,
              protectLastN,
              compactionCount,
            });
            const { headEnd, tailStart } = found;
            expect(0 <= headEnd && headEnd <= tailStart && tailStart <= list.length).toBe(true);
            list.forEach((message, index) => {
              if (message.role === 'system' && list.slice(0, index).every((m) => m.role === 'system')) {
                expect(index).toBeLessThan(Math.max(headEnd, 1));
              }
            });
            const region = (index: number) => (index < headEnd ? 0 : index < tailStart ? 1 : 2);
            for (const [callAt, resultAt] of toolPairs(list)) expect(region(resultAt)).toBe(region(callAt));
            expect(list[headEnd]?.role).not.toBe('tool');
            expect(list[tailStart]?.role).not.toBe('tool');
            const latest = findLatestUserRequest(list);
            expect(found.latestUserRequest).toBe(latest);
            if (latest !== -1)
              expect(latest < headEnd || latest >= tailStart || latest === found.keepRequestAt).toBe(true);
            if (found.keepRequestAt !== undefined) expect(found.keepRequestAt).toBe(latest);
            if (found.headCheckpointIndex !== undefined) {
              expect(found.headCheckpointIndex).toBeLessThan(headEnd);
              expect(isCheckpointMessage(list[found.headCheckpointIndex] as Message)).toBe(true);
            }
            if (found.previousCheckpointIndex !== undefined) {
              expect(isCheckpointMessage(list[found.previousCheckpointIndex] as Message)).toBe(true);
              expect(found.previousCheckpointIndex).toBeGreaterThanOrEqual(headEnd);
              expect(found.previousCheckpointIndex).toBeLessThan(tailStart);
            }
          }
        },
      ),
      RUNS,
    );
  });

  it('sanitizeToolPairs output passes every pair rule, keeps valid messages as they are, and is idempotent', () => {
    fc.assert(
      fc.property(brokenTranscriptArb, fc.constantFrom('strip', 'stub'), (messages, orphanCalls) => {
        const input = frozen(messages);
        const mode = orphanCalls as 'strip' | 'stub';
        const out = sanitizeToolPairs(input, { orphanCalls: mode });
        for (const provider of ['openai', 'anthropic'] as const) {
          const codes = [...violationCounts(out.messages, provider).keys()];
          expect(codes.filter((code) => PAIR_RULES.has(code))).toEqual([]);
        }
        expect(violationCounts(out.messages, 'generic').get('empty-message') ?? 0).toBeLessThanOrEqual(
          violationCounts(input, 'generic').get('empty-message') ?? 0,
        );
        const originals = new Set(input);
        const changed = out.messages.filter((message) => !originals.has(message)).length;
        if (changed === 0 && out.messages.length === input.length) expect(out.messages).toBe(input);
        if (mode === 'stub') expect(out.removedCalls).toBe(0);
        const again = sanitizeToolPairs(out.messages, { orphanCalls: mode });
        expect(again.messages).toBe(out.messages);
      }),
      RUNS,
    );
  });

  it('sanitizeToolPairs leaves a valid transcript untouched', () => {
    fc.assert(
      fc.property(transcriptArb, (messages) => {
        const input = frozen(messages);
        expect(sanitizeToolPairs(input).messages).toBe(input);
      }),
      RUNS,
    );
  });
});
