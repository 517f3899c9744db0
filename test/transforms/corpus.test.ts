import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { extractArtifacts } from '../../src/inspect/artifacts.js';
import type { FormatName } from '../../src/model/format.js';
import type { Message } from '../../src/model/message.js';
import { toolResultText } from '../../src/model/message-helpers.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { DIGEST_PREFIX } from '../../src/transforms/condensed-markers.js';
import { findBoundaries } from '../../src/transforms/find-boundaries.js';
import { findLatestUserRequest } from '../../src/transforms/find-latest-user-request.js';
import { pruneToolOutputs } from '../../src/transforms/prune-tool-outputs.js';
import { sanitizeToolPairs } from '../../src/transforms/sanitize-tool-pairs.js';
import { indexToolCalls } from '../../src/transforms/tool-call-index.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { deepFreeze, gainedViolations, PAIR_RULES } from './support.js';

const DIRS: readonly (readonly [CorpusDir, FormatName])[] = [
  ['anthropic', 'anthropic'],
  ['claude-code', 'claude-code'],
  ['openai', 'openai'],
  ['sharegpt', 'sharegpt'],
];
const counter = createRoughCounter();
const coverage = {
  digests: 0,
  artifacts: 0,
  kept: 0,
  failed: 0,
  failedKept: 0,
  errorLines: 0,
  errorLinesKept: 0,
  missing: [] as string[],
};

/** Pairs whose result sits in the tool run right after its call (the groups a boundary must not split). */
function adjacentPairs(messages: readonly Message[]): [number, number][] {
  const pairs: [number, number][] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !message.parts.some((part) => part.type === 'tool-call')) return;
    let end = index + 1;
    while (messages[end]?.role === 'tool') end++;
    if (end > index + 1) pairs.push([index, end - 1]);
  });
  return pairs;
}

function hasDuplicateCallIds(messages: readonly Message[]): boolean {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      if (seen.has(part.id)) return true;
      seen.add(part.id);
    }
  }
  return false;
}

/** Records, for every digested output, whether the paths, URLs and commands of its call survive verbatim. */
function measureDigests(input: readonly Message[], output: readonly Message[]): void {
  const calls = indexToolCalls(input);
  output.forEach((message, index) => {
    message.parts.forEach((part, partIndex) => {
      const before = input[index]?.parts[partIndex];
      if (part === before || part.type !== 'tool-result' || before?.type !== 'tool-result') return;
      const digest = toolResultText(part.content);
      if (!digest.startsWith(DIGEST_PREFIX)) return;
      coverage.digests++;
      const call = calls.callFor(index, partIndex);
      if (call !== undefined) {
        const artifacts = extractArtifacts([{ role: 'assistant', parts: [call] }]);
        for (const artifact of [...artifacts.paths, ...artifacts.urls, ...artifacts.commands]) {
          coverage.artifacts++;
          if (digest.includes(artifact)) coverage.kept++;
          else if (coverage.missing.length < 40) coverage.missing.push(`${call.name}: ${artifact}`);
        }
      }
      for (const line of extractArtifacts([{ role: 'tool', parts: [before] }]).errorLines) {
        coverage.errorLines++;
        if (digest.includes(line)) coverage.errorLinesKept++;
      }
      if (before.isError === true) {
        coverage.failed++;
        const first =
          toolResultText(before.content)
            .split('\n')
            .find((line) => line.trim() !== '')
            ?.trim() ?? '';
        if (digest.includes(first.slice(0, 200))) coverage.failedKept++;
      }
    });
  });
}

function checkTranscript(input: readonly Message[]): void {
  const pruned = pruneToolOutputs(input, { counter, protectLastN: 4, protectTailTokens: 2000 });
  expect(pruned.messages).toHaveLength(input.length);
  expect(input[pruned.boundary]?.role).not.toBe('tool');
  for (let index = pruned.boundary; index < input.length; index++) {
    const next = pruned.messages[index] as Message;
    if (next !== input[index]) expect(JSON.stringify(next.parts)).toContain('[duplicate output]');
  }
  expect(gainedViolations(input, pruned.messages)).toEqual([]);
  measureDigests(input, pruned.messages);

  for (const list of [input, pruned.messages]) {
    const found = findBoundaries(list, {
      counter,
      tailTokenBudget: 4000,
      protectFirstN: 3,
      protectLastN: 20,
    });
    const { headEnd, tailStart } = found;
    expect(0 <= headEnd && headEnd <= tailStart && tailStart <= list.length).toBe(true);
    const region = (index: number) => (index < headEnd ? 0 : index < tailStart ? 1 : 2);
    for (const [call, lastResult] of adjacentPairs(list)) expect(region(lastResult)).toBe(region(call));
    const latest = findLatestUserRequest(list);
    if (latest !== -1)
      expect(latest < headEnd || latest >= tailStart || latest === found.keepRequestAt).toBe(true);
    let systemEnd = 0;
    while (list[systemEnd]?.role === 'system') systemEnd++;
    expect(headEnd).toBeGreaterThanOrEqual(Math.min(systemEnd, tailStart));
  }

  const sanitized = sanitizeToolPairs(pruned.messages);
  expect(gainedViolations(pruned.messages, sanitized.messages)).toEqual([]);
  if (!hasDuplicateCallIds(pruned.messages)) {
    const pairRules = verifyTranscript({ messages: sanitized.messages }).filter((v) =>
      PAIR_RULES.has(v.code),
    );
    expect(pairRules).toEqual([]);
  }
}

describe('pruning and boundaries over the real corpus', () => {
  for (const [dir, format] of DIRS) {
    for (const file of corpusFiles(dir)) {
      it(`${dir}/${shortName(file)} keeps every invariant`, () => {
        const document = decodeDocument(readCorpusFile(file), { format, fileName: file });
        for (const transcript of documentTranscripts(document))
          checkTranscript(deepFreeze(transcript).messages);
      });
    }
  }

  it('digests keep at least 99 % of the paths, URLs and commands of the calls they describe', () => {
    if (coverage.digests === 0) return;
    const ratio = coverage.kept / Math.max(1, coverage.artifacts);
    console.log(
      `digest artifact coverage: ${coverage.kept}/${coverage.artifacts} = ${(100 * ratio).toFixed(2)} % over ` +
        `${coverage.digests} digests; first line of failed outputs kept in ${coverage.failedKept}/${coverage.failed}; ` +
        `error lines kept ${coverage.errorLinesKept}/${coverage.errorLines}`,
    );
    if (coverage.missing.length > 0) console.log(`missing (sample):\n  ${coverage.missing.join('\n  ')}`);
    expect(ratio).toBeGreaterThanOrEqual(0.99);
    expect(coverage.failedKept).toBe(coverage.failed);
  });
});

afterAll(() => {
  coverage.missing.length = 0;
});
