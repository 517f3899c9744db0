import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveCompressorSettings } from '../../src/engines/compressor/options.js';
import { layOut, SQUEEZE_LEVELS, type SqueezeLevel } from '../../src/engines/compressor/pass-layout.js';
import type { Message } from '../../src/model/message.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { findBoundaries } from '../../src/transforms/find-boundaries.js';
import { type PrunePlan, planPruning } from '../../src/transforms/prune-tool-outputs.js';
import { transcriptArb } from '../transforms/arbitraries.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 150) };

/**
 * The oracle: the layout's boundaries as they were found before messages were priced by index: on the messages
 * before digests with a counter that looked each message's position up in a map, or on the transcript pruned
 * whole when one message object sat at two positions.
 */
function oracleBounds(
  messages: readonly Message[],
  counter: TokenCounter,
  squeeze: SqueezeLevel,
  threshold: number,
) {
  const settings = resolveCompressorSettings({ contextLength: 200_000 });
  const tailTokenBudget = Math.floor(threshold * settings.tailRatio * squeeze.tailShare);
  const protectLastN = squeeze.protectLastN ?? settings.protectLastN;
  const plan = planPruning(messages, {
    counter,
    protectLastN,
    protectTailTokens: tailTokenBudget,
    dedupeKeep: settings.dedupeKeep,
  });
  const sized = prunedSizes(plan, counter);
  return findBoundaries(sized.messages, {
    counter: sized.counter,
    protectFirstN: squeeze.level === 0 ? settings.protectFirstN : 0,
    protectLastN,
    tailTokenBudget,
    compactionCount: 0,
    ...(squeeze.minTailMessages === undefined ? {} : { minTailMessages: squeeze.minTailMessages }),
    keepRequestReply: squeeze.keepReplies,
    keepLastReply: squeeze.keepReplies,
  });
}

function prunedSizes(
  plan: PrunePlan,
  counter: TokenCounter,
): { readonly messages: readonly Message[]; readonly counter: TokenCounter } {
  const positions = new Map<Message, number>();
  for (let index = 0; index < plan.boundary; index++) {
    const message = plan.base[index] as Message;
    if (positions.has(message)) return { messages: plan.whole().messages, counter };
    positions.set(message, index);
  }
  const countMessage = (message: Message): number => {
    const index = positions.get(message);
    return counter.countMessage(index === undefined ? message : plan.messageAt(index));
  };
  return {
    messages: plan.base,
    counter: {
      name: counter.name,
      exact: counter.exact,
      countText: (text) => counter.countText(text),
      countPart: (part) => counter.countPart(part),
      countMessage,
      countTranscript: (transcript) =>
        transcript.messages.reduce((sum, message) => sum + countMessage(message), 0),
    },
  };
}

// Transcripts as generated, and with some message objects repeated at a second position.
const messagesArb = fc.oneof(
  transcriptArb,
  fc
    .tuple(transcriptArb, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }))
    .map(([messages, copies]) => {
      const out = [...messages];
      for (const [from, to] of copies)
        out.splice(to % (out.length + 1), 0, out[from % out.length] as Message);
      return out;
    }),
);

describe('layOut: boundaries priced by index', () => {
  it('finds the boundaries the position map found', () => {
    fc.assert(
      fc.property(
        messagesArb,
        fc.constantFrom(...SQUEEZE_LEVELS),
        fc.integer({ min: 200, max: 20_000 }),
        (messages, squeeze, threshold) => {
          const counter = createRoughCounter();
          const settings = resolveCompressorSettings({ contextLength: 200_000 });
          const layout = layOut(
            messages,
            { settings, thresholdTokens: threshold, counter, compactionCount: 0 },
            squeeze,
          );
          const expected = oracleBounds(messages, counter, squeeze, threshold);
          expect({
            headEnd: layout.headEnd,
            tailStart: layout.tailStart,
            headCheckpointIndex: layout.headCheckpointIndex,
            keepRequestAt: layout.keepRequestAt,
          }).toEqual({
            headEnd: expected.headEnd,
            tailStart: expected.tailStart,
            headCheckpointIndex: expected.headCheckpointIndex,
            keepRequestAt: expected.keepRequestAt,
          });
        },
      ),
      RUNS,
    );
  });
});
