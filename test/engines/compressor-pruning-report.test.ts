import { describe, expect, it, vi } from 'vitest';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { Message } from '../../src/model/message.js';
import { toolResultText } from '../../src/model/message-helpers.js';
import type { Transcript } from '../../src/model/transcript.js';
import { classifyMessages } from '../../src/report/classify-messages.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import { DIGEST_PREFIX } from '../../src/transforms/condensed-markers.js';
import { assistant, call, long, result, system, tool, user } from '../transforms/support.js';
import { exampleSession } from './support.js';

// Every digest the compressor makes goes through digestMessage: counting its digests shows which were made.
const made = vi.hoisted(() => ({ digests: 0 }));
vi.mock('../../src/transforms/digest-tool-results.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/transforms/digest-tool-results.js')>();
  return {
    ...original,
    digestMessage: (...args: Parameters<typeof original.digestMessage>) => {
      const done = original.digestMessage(...args);
      made.digests += done.digested;
      return done;
    },
  };
});

function digests(messages: Iterable<Message>): number {
  let count = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-result' && toolResultText(part.content).startsWith(DIGEST_PREFIX)) count++;
    }
  }
  return count;
}

/** A session of `count` shell steps with outputs of about `size` characters, the request `at` steps in. */
function longOutputs(count: number, size: number, at = 0): Transcript {
  const messages: Message[] = [system('You are a coding agent.'), user('Make the build pass.')];
  for (let index = 0; index < count; index++) {
    if (index === at && at > 0) messages.push(user('Also keep the old flag working.'));
    messages.push(assistant(`step ${index}`, call(`c${index}`, 'Bash', { command: `make step${index}` })));
    messages.push(tool(result(`c${index}`, long(`make step${index} output`, size))));
  }
  messages.push(assistant('The build passes.'));
  return { messages };
}

/**
 * Name, transcript, window, the fewest long outputs the compaction should fold, and how many digests beyond the
 * kept ones finding the boundaries may need: one where each token walk stops (the tail's walk, the reach back to
 * the latest request, the reach back to the last reply), or, when the request sits in the middle, the digested
 * steps after it up to half the tail's budget, which decide whether the tail can reach back to it.
 */
const sessions: [string, () => Transcript, number, number, number][] = [
  ['150 steps of 800-character outputs', () => longOutputs(150, 800), 8_000, 100, 3],
  ['the latest request halfway through 200 steps', () => longOutputs(200, 600, 100), 8_000, 100, 20],
  ['a generated coding session', () => buildCodingSession({ steps: 80 }), 4_000, 0, 3],
  ['the example session', exampleSession, 2_000, 0, 3],
];

describe('compressor pruning report', () => {
  for (const [name, make, contextLength, minFolded, extra] of sessions) {
    it(`counts what the kept messages show, as the per-message classification does (${name})`, async () => {
      const before = make();
      const { transcript: after, report } = await createCompressor({ contextLength }).compress(before, {
        force: true,
      });
      expect(report.dropped).toBeGreaterThan(0);
      const { totals } = classifyMessages(before.messages, after.messages, report);
      expect(report.pruning).toEqual({
        deduplicated: totals.deduplicated,
        digested: totals.digested,
        argumentsShrunk: totals.argumentsShrunk,
        imagesStripped: totals.imagesStripped,
      });
      expect(report.pruning.digested).toBe(digests(after.messages));
    });

    it(`digests only the outputs it keeps or must price to place the tail (${name})`, async () => {
      const before = make();
      made.digests = 0;
      const { transcript: after, report } = await createCompressor({ contextLength }).compress(before, {
        force: true,
      });
      // Outputs of folded messages go to the checkpoint from the originals: digesting them would be wasted.
      expect(made.digests).toBeLessThanOrEqual(digests(after.messages) + extra);
      const folded = before.messages
        .slice(report.boundaries?.headEnd, report.boundaries?.tailStart)
        .flatMap((message) => message.parts)
        .filter((part) => part.type === 'tool-result' && toolResultText(part.content).length > 200);
      expect(folded.length).toBeGreaterThanOrEqual(minFolded);
    });
  }

  it('compacts a transcript that holds one message object at several places as one whose copies are distinct', async () => {
    const shared = assistant('Checking the next target.');
    const session = longOutputs(120, 800);
    const messages = session.messages.flatMap((message, index) =>
      index % 10 === 5 && message.role === 'assistant' ? [shared, message] : [message],
    );
    const withShared = await createCompressor({ contextLength: 8_000 }).compress(
      { messages },
      { force: true },
    );
    const distinct = await createCompressor({ contextLength: 8_000 }).compress(
      { messages: structuredClone(messages) },
      { force: true },
    );
    expect(withShared.transcript).toEqual(distinct.transcript);
    expect({ ...withShared.report, durationMs: 0 }).toEqual({ ...distinct.report, durationMs: 0 });
  });
});
