import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../../src/engines/budget-error.js';
import { describeCompaction } from '../../../src/engines/feedback.js';
import { createEngine, createEngineRegistry } from '../../../src/engines/registry.js';
import { createRuleEngine } from '../../../src/engines/rules/create-rule-engine.js';
import { protectedTailStart } from '../../../src/engines/rules/protected-tail.js';
import { restoreTranscript } from '../../../src/engines/rules/restore-transcript.js';
import type { Message } from '../../../src/model/message.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { assistant, call, long, result, tool, user } from '../../transforms/support.js';
import { exampleSession } from '../support.js';
import { agentLoop } from './support.js';

/** The reference of the first collapsed tool line. */
function toolLineRef(messages: readonly Message[]): string {
  return /\[tool: [^\]]*?ref=(m\d+#[0-9a-f]{8})/.exec(JSON.stringify(messages))?.[1] as string;
}

describe('rules engine', () => {
  it('triggers at exactly the configured share of the window, without the compressor’s floors', () => {
    const engine = createRuleEngine({ contextLength: 65_000 });
    expect(engine.thresholdTokens).toBe(39_000);
    expect(engine.shouldCompress(38_999)).toBe(false);
    expect(engine.shouldCompress(39_000)).toBe(true);
    expect(createRuleEngine({ contextLength: 65_000, maxOutputTokens: 5_000 }).thresholdTokens).toBe(36_000);
    expect(createRuleEngine({ contextLength: 100_000, triggerThreshold: 0.8 }).thresholdTokens).toBe(80_000);
  });

  it('leaves a transcript under the threshold alone unless forced, and runs on demand', async () => {
    const transcript = { messages: agentLoop(20) };
    const engine = createRuleEngine();
    const automatic = await engine.compress(transcript);
    expect(automatic.transcript).toBe(transcript);
    expect(automatic.report.reason).toMatch(/below the threshold/);
    const manual = await engine.compress(transcript, { force: true });
    expect(manual.report.madeProgress).toBe(true);
    expect(manual.report.engine).toBe('rules');
  });

  it('says how far above the target a forced pass leaves the transcript, and offers the strict preset', async () => {
    const transcript = { messages: agentLoop(12, 12_000) };
    const { report } = await createRuleEngine({ contextLength: 24_000 }).compress(transcript, {
      force: true,
    });
    expect(report.notes.join(' ')).toMatch(
      /still [\d.]+ % above the target of 14,400 tokens .* strict preset/,
    );
    expect(describeCompaction(report).note).toMatch(/above the target/);
    const strict = await createRuleEngine({ contextLength: 8_000, preset: 'strict' }).compress(transcript, {
      force: true,
    });
    expect(strict.report.tokensAfter.rough).toBeLessThan(report.tokensAfter.rough);
    expect(strict.report.notes.join(' ')).toMatch(/compressor engine/);
  });

  it('points past the rules, not at the strict preset, once squeezing to fit the window already went stricter', async () => {
    const transcript = { messages: agentLoop(12, 12_000) };
    const caught = await createRuleEngine({ contextLength: 3_000 })
      .compress(transcript, { force: true })
      .catch((error: unknown) => error);
    expect(isContextOverflow(caught)).toBe(true);
    if (!isContextOverflow(caught)) return;
    const notes = caught.details.best.report.notes.join(' ');
    expect(notes).toMatch(/rules squeezed \(\d+ steps? stricter\)/);
    expect(notes).toMatch(/above the target .* compressor engine/);
    expect(notes).not.toMatch(/strict preset/);
    expect(caught.hint).toMatch(/compressor engine/);
  });

  it('respects enabled: false for automatic compaction only', async () => {
    const engine = createRuleEngine({ enabled: false, contextLength: 8_000 });
    expect(engine.shouldCompress(1_000_000)).toBe(false);
    const transcript = { messages: agentLoop(20) };
    expect((await engine.compress(transcript)).report.reason).toMatch(/disabled/);
    expect((await engine.compress(transcript, { force: true })).report.madeProgress).toBe(true);
    expect(engine.status().blocked).toMatch(/disabled/);
  });

  it('pauses automatic compaction after two ineffective passes', async () => {
    const engine = createRuleEngine({ contextLength: 8_000 });
    const tiny = { messages: [user('hi'), assistant('hello')] };
    await engine.compress(tiny, { force: true });
    await engine.compress(tiny, { force: true });
    expect(engine.shouldCompress(engine.thresholdTokens + 1)).toBe(false);
    expect(engine.status().blocked).toMatch(/paused/);
    // A pause never holds past the window.
    expect(engine.shouldCompress(1_000_000)).toBe(true);
    engine.resetSession();
    expect(engine.shouldCompress(engine.thresholdTokens + 1)).toBe(true);
  });

  it('reports how many leading messages it left byte-identical', async () => {
    const input = { messages: agentLoop(20) };
    const { transcript, report } = await createRuleEngine().compress(input, { force: true });
    expect(report.unchangedPrefix).toBe(2);
    expect(transcript.messages.slice(0, 2)).toEqual(input.messages.slice(0, 2));
    expect(report.notes).toContain('2 leading messages left byte-identical');
  });

  it('in cache-friendly mode never rewrites what its previous pass emitted', async () => {
    const continueWith = (messages: readonly Message[], from: number): Message[] => {
      const out = [...messages];
      for (let step = from; step < from + 10; step++) {
        out.push(assistant(`more ${step}`, call(`m${step}`, 'grep', { pattern: `x${step}`, path: '/repo' })));
        out.push(tool(result(`m${step}`, long(`matches ${step} in /repo/lib/m${step}.ts`, 1_200))));
      }
      return out;
    };
    for (const cacheFriendly of [true, false]) {
      const engine = createRuleEngine({ cacheFriendly });
      const first = await engine.compress({ messages: agentLoop(20) }, { force: true });
      const second = await engine.compress(
        { messages: continueWith(first.transcript.messages, 0) },
        { force: true },
      );
      const previous = first.transcript.messages;
      const frozen = protectedTailStart(previous, 5);
      if (cacheFriendly) {
        expect(second.transcript.messages.slice(0, frozen)).toEqual(previous.slice(0, frozen));
        expect(second.report.unchangedPrefix).toBeGreaterThanOrEqual(frozen);
      } else expect(second.report.unchangedPrefix).toBeLessThan(frozen);
      expect(verifyTranscript(second.transcript, { provider: 'anthropic' })).toEqual([]);
    }
  });

  it('labels references by their place in the session log across passes, so the log restores every pass', async () => {
    const engine = createRuleEngine();
    const log: Message[] = agentLoop(20);
    const first = await engine.compress({ messages: log }, { force: true });
    const appended: Message[] = [];
    for (let step = 0; step < 10; step++) {
      appended.push(assistant(`more ${step}`, call(`n${step}`, 'bash', { command: `make part${step}` })));
      appended.push(tool(result(`n${step}`, long(`built part ${step}`, 1_500))));
    }
    log.push(...appended);
    const second = await engine.compress(
      { messages: [...first.transcript.messages, ...appended] },
      { force: true },
    );
    const back = restoreTranscript(second.transcript, { messages: log });
    expect(back.unresolved).toEqual([]);
    expect(back.transcript.messages).toEqual(log);
  });

  it('offers a recall tool that returns the original of a reference and searches what it collapsed', async () => {
    const engine = createRuleEngine();
    expect(engine.tools().map((tool) => tool.name)).toEqual(['condense_recall']);
    const { transcript } = await engine.compress({ messages: agentLoop(20) }, { force: true });
    const ref = toolLineRef(transcript.messages);
    const original = await engine.handleToolCall('condense_recall', { ref: `ref=${ref}` });
    expect(original).toContain('call read_file {"path":"/repo/src/module0.ts"}');
    expect(original).toContain('output of step 0 in /repo/src/part0.ts line 16');
    const found = await engine.handleToolCall('condense_recall', { pattern: 'PART3.TS line 12:' });
    expect(found).toMatch(/1 condensed element contain/);
    expect(found).toContain('part3.ts line 12');
    expect(await engine.handleToolCall('condense_recall', { ref: 'm999#00000000' })).toMatch(
      /No condensed element/,
    );
    expect(await engine.handleToolCall('condense_recall', {})).toMatch(/Pass `ref`/);
    await expect(engine.handleToolCall('other', {})).rejects.toThrow(/no tool named "other"/);
    engine.resetSession();
    expect(await engine.handleToolCall('condense_recall', { ref })).toMatch(/No condensed element/);
  });

  it('pages long originals through the recall tool', async () => {
    const engine = createRuleEngine();
    const { transcript } = await engine.compress({ messages: agentLoop(20, 50_000) }, { force: true });
    const ref = toolLineRef(transcript.messages);
    const page = await engine.handleToolCall('condense_recall', { ref });
    expect(page).toMatch(/call again with offset=20000\]$/);
    const next = await engine.handleToolCall('condense_recall', { ref, offset: 20_000 });
    expect(next.length).toBeGreaterThan(1_000);
  });

  it('compacts the README example session by half with the defaults, valid for both providers', async () => {
    const { transcript, report } = await createRuleEngine().compress(exampleSession(), { force: true });
    expect(report.savings.percent).toBeGreaterThan(40);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
    expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
  });
});

describe('engine registry', () => {
  it('creates the built-in engines by name and rejects unknown names', () => {
    expect(createEngine('rules', { protectLastNTurns: 2 }).name).toBe('rules');
    expect(createEngine('compressor').name).toBe('compressor');
    const registry = createEngineRegistry();
    expect(registry.names).toEqual(['compressor', 'rules']);
    expect(registry.has('rules')).toBe(true);
    expect(() => registry.create('nope' as never)).toThrow(/unknown engine "nope".*|known engines/);
  });

  it('adds third-party engines without changing the registry it came from', () => {
    const base = createEngineRegistry();
    const extended = base.with('mine', (options: { window: number }) =>
      createRuleEngine({ contextLength: options.window }),
    );
    expect(extended.create('mine', { window: 50_000 }).status().contextLength).toBe(50_000);
    expect(base.has('mine')).toBe(false);
    expect(() => extended.with('rules', () => createRuleEngine())).toThrow(/already registered/);
  });
});
