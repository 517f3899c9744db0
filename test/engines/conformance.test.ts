import { describe, expect, it } from 'vitest';
import { createElideOutputsEngine, elideOutputsCompactor } from '../../examples/engines/elide-outputs.js';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { CompactionResult, ContextEngine } from '../../src/engines/context-engine.js';
import { governEngine } from '../../src/engines/governor.js';
import { createEngineRegistry } from '../../src/engines/registry.js';
import { createRuleEngine } from '../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { type EngineConformanceCase, runEngineConformance } from '../../src/testing.js';
import { readFixture } from '../support/fixtures.js';

/** Real transcripts of the committed fixtures (permissively licensed excerpts, see test/fixtures/SOURCES.md). */
function fixtureCases(): EngineConformanceCase[] {
  const files = [
    'convert/claude-code-tool-errors.jsonl',
    'convert/claude-code-rewind.jsonl',
    'convert/swe-agent-function-calling.traj',
    'convert/tau-bench-airline-run.json',
    'convert/hermes-trajectories.jsonl',
    'codex/derived-typescript-cli.rollout.json',
    'codex/agent-sessions-large.rollout.jsonl',
  ];
  return files.flatMap((file) =>
    documentTranscripts(decodeDocument(readFixture(file), { fileName: file })).map((transcript, index) => ({
      name: `${file}#${index}`,
      transcript,
    })),
  );
}

const FIXTURES = fixtureCases();

it('decodes the fixture transcripts the suite runs', () => {
  expect(FIXTURES.length).toBeGreaterThanOrEqual(7);
});

async function expectConformance(create: () => ContextEngine): Promise<void> {
  const result = await runEngineConformance({ create, transcripts: FIXTURES });
  expect(result.failures).toEqual([]);
  expect(result.cases).toBeGreaterThan(FIXTURES.length);
}

describe('engine conformance', () => {
  it('holds for the compressor', async () => {
    await expectConformance(() => createCompressor());
  });

  it('holds for the rules engine, with its default and strict presets', async () => {
    await expectConformance(() => createRuleEngine());
    await expectConformance(() => createRuleEngine({ preset: 'strict' }));
  });

  it("holds for the docs' third-party engine, made and registered through the public API", async () => {
    await expectConformance(() => createElideOutputsEngine());
    const registry = createEngineRegistry().with('elide-outputs', createElideOutputsEngine);
    await expectConformance(() => registry.create('elide-outputs', { keepRecent: 1 }));
  });
});

/** An engine that passes every call to `inner` and then breaks its result with `spoil`. */
function spoiled(
  inner: () => ContextEngine,
  spoil: (input: Transcript, result: CompactionResult) => CompactionResult,
): () => ContextEngine {
  return () => {
    const engine = inner();
    return {
      name: engine.name,
      shouldCompress: (tokens) => engine.shouldCompress(tokens),
      shouldCompressPreflight: (transcript) => engine.shouldCompressPreflight(transcript),
      hasContentToCompress: (transcript) => engine.hasContentToCompress(transcript),
      compress: async (input, options) => spoil(input, await engine.compress(input, options)),
      updateFromResponse: (usage) => engine.updateFromResponse(usage),
      updateModel: (model) => engine.updateModel(model),
      resetSession: () => engine.resetSession(),
      status: () => engine.status(),
    };
  };
}

const withMessages = (result: CompactionResult, messages: readonly Message[]): CompactionResult => ({
  transcript: { ...result.transcript, messages },
  report: { ...result.report, messagesAfter: messages.length },
});

async function checksFailed(create: () => ContextEngine): Promise<string[]> {
  const result = await runEngineConformance({ create });
  return [...new Set(result.failures.map((failure) => failure.check))].sort();
}

describe('engine conformance catches a broken engine', () => {
  const base = () => createElideOutputsEngine({ keepRecent: 1 });

  it('that rewrites the system prompt or the latest request', async () => {
    const system = spoiled(base, (_, result) =>
      withMessages(
        result,
        result.transcript.messages.map((message) =>
          message.role === 'system' ? { ...message, parts: [{ type: 'text', text: 'changed' }] } : message,
        ),
      ),
    );
    expect(await checksFailed(system)).toContain('system-prompt');
    const request = spoiled(base, (_, result) =>
      withMessages(result, [
        ...result.transcript.messages.slice(0, -1),
        { role: 'user', parts: [{ type: 'text', text: 'something else' }] },
      ]),
    );
    expect(await checksFailed(request)).toContain('latest-request');
  });

  it('that breaks tool pairs or miscounts its report', async () => {
    const unpaired = spoiled(base, (_, result) =>
      withMessages(
        result,
        result.transcript.messages.filter((message) => message.role !== 'tool'),
      ),
    );
    expect(await checksFailed(unpaired)).toContain('provider-rules');
    const miscounted = spoiled(base, (_, result) => ({
      ...result,
      report: { ...result.report, messagesAfter: result.report.messagesAfter + 1 },
    }));
    expect(await checksFailed(miscounted)).toEqual(['report']);
  });

  it('whose provenance does not describe its output', async () => {
    const rules = () => createRuleEngine({ preset: 'strict' });
    const short = spoiled(rules, (_, result) => {
      const provenance = result.report.provenance;
      if (provenance === undefined || provenance.output.length === 0) return result;
      return {
        ...result,
        report: { ...result.report, provenance: { ...provenance, output: provenance.output.slice(1) } },
      };
    });
    expect(await checksFailed(short)).toEqual(['provenance']);
    const allKept = spoiled(rules, (input, result) => {
      const provenance = result.report.provenance;
      if (provenance === undefined || result.transcript.messages === input.messages) return result;
      const output = provenance.output.map((entry, index) => ({
        ...entry,
        status: 'kept' as const,
        from: [index],
      }));
      return { ...result, report: { ...result.report, provenance: { ...provenance, output } } };
    });
    expect(await checksFailed(allKept)).toEqual(['provenance']);
  });

  it('that writes to its input', async () => {
    const writer = spoiled(base, (input, result) => {
      (input.messages as Message[]).reverse();
      return result;
    });
    expect(await checksFailed(writer)).toContain('input-mutated');
  });

  it('that ignores the window, the threshold or its own output', async () => {
    const ignoresWindow = spoiled(base, (input, result) => ({
      transcript: input,
      report: { ...result.report, messagesAfter: input.messages.length, madeProgress: false, reason: 'none' },
    }));
    expect(await checksFailed(ignoresWindow)).toContain('budget');
    let passes = 0;
    const restless = spoiled(base, (_, result) => {
      passes++;
      const messages = result.transcript.messages;
      const last = messages.length - 1;
      return withMessages(result, [
        ...messages.slice(0, last - 1),
        { role: 'assistant', parts: [{ type: 'text', text: `pass ${passes}` }] },
        messages[last] as Message,
      ]);
    });
    expect(await checksFailed(restless)).toEqual(expect.arrayContaining(['idempotent', 'threshold']));
  });

  it('made by the governor from a compactor, which holds the triggering contract by construction', async () => {
    const result = await runEngineConformance({ create: () => governEngine(elideOutputsCompactor()) });
    expect(result.failures).toEqual([]);
    expect(result.skipped.length).toBeLessThan(result.cases);
  });
});
