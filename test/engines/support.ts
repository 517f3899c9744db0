import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { isContextOverflow } from '../../src/engines/budget-error.js';
import type { CompactionResult } from '../../src/engines/context-engine.js';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import type { Summarizer, SummaryRequest } from '../../src/summarizer/summarizer.js';
import { SummarizerError } from '../../src/summarizer/summarizer-error.js';
import { checkpointOf } from '../../src/transforms/checkpoint-text.js';
import { findLatestUserRequest } from '../../src/transforms/find-latest-user-request.js';
import { personText } from '../../src/transforms/user-turns.js';
import { ROOT } from '../support/cli.js';

/** The README's example coding-agent session. */
export function exampleSession(): Transcript {
  const text = readFileSync(join(ROOT, 'examples', 'coding-agent-session.openai.json'), 'utf8');
  return documentTranscripts(decodeDocument(text))[0] as Transcript;
}

/** A model summarizer stand-in that answers with fixed text and records what it was asked. */
export function recordingSummarizer(
  answer = 'Model checkpoint body.',
): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    name: 'fake-model',
    kind: 'model',
    requests,
    summarize: async (request) => {
      requests.push(request);
      return { text: answer, source: 'model', model: 'fake-model', calls: 1 };
    },
  };
}

/** A model summarizer stand-in that always fails with the given failure class. */
export function failingSummarizer(failure: 'auth' | 'timeout' | 'other'): Summarizer & { calls: number } {
  const summarizer = {
    name: `failing-${failure}`,
    kind: 'model' as const,
    calls: 0,
    summarize: async () => {
      summarizer.calls++;
      throw new SummarizerError({
        failure,
        message: `simulated ${failure} failure`,
        calls: 1,
        retryable: failure === 'timeout',
      });
    },
  };
  return summarizer;
}

/** Index of the latest message in which the person asked something, and their words. */
export function latestRequest(messages: readonly Message[]): { index: number; text: string } | undefined {
  const index = findLatestUserRequest(messages);
  if (index === -1) return undefined;
  return { index, text: personText(messages[index] as Message) ?? '' };
}

/** Indices of messages that carry a checkpoint. */
export function checkpointIndices(messages: readonly Message[]): number[] {
  return messages.flatMap((message, index) => (checkpointOf(message) === undefined ? [] : [index]));
}

/**
 * Runs a compaction that may not fit its window: the result, or the smallest result the engine could make
 * with `overflow` set when it raised `BUDGET_UNREACHABLE` (which then must carry that result).
 */
export async function compactOrBest(
  run: () => Promise<CompactionResult>,
): Promise<CompactionResult & { readonly overflow: boolean }> {
  try {
    return { ...(await run()), overflow: false };
  } catch (error) {
    if (!isContextOverflow(error)) throw error;
    expect(error.details.tokens).toBeGreaterThan(error.details.limit);
    return { ...error.details.best, overflow: true };
  }
}
