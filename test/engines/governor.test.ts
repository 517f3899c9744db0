import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/engines/budget-error.js';
import type { CompactionReport } from '../../src/engines/compaction-report.js';
import type { Compactor, CompactorPass } from '../../src/engines/compactor.js';
import { GovernedEngine, governEngine, idleReport } from '../../src/engines/governor.js';
import { createRuleEngine } from '../../src/engines/rules/create-rule-engine.js';
import type { Transcript } from '../../src/model/transcript.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';

const counter = createRoughCounter();
const SESSION = buildCodingSession({ steps: 40 });
const SIZE = counter.countTranscript(SESSION);

/** A compactor whose passes return their input and report `savedPercent` saved (or `afterTokens` left). */
function scripted(options: { contextLength: number; savedPercent?: number; afterTokens?: number }) {
  const passes: CompactorPass[] = [];
  let contextLength = options.contextLength;
  const compactor: Compactor = {
    name: 'scripted',
    counter,
    window: () => ({ contextLength, thresholdTokens: Math.floor(contextLength / 2) }),
    updateModel: (model) => {
      contextLength = model.contextLength;
    },
    hasContentToCompress: () => true,
    async compact(transcript: Transcript, pass: CompactorPass) {
      passes.push(pass);
      const before = counter.countTranscript(transcript);
      const percent = options.savedPercent ?? 50;
      const after = options.afterTokens ?? Math.round(before * (1 - percent / 100));
      const report: CompactionReport = {
        ...idleReport('scripted', transcript, before, 'scripted'),
        tokensAfter: { rough: after },
        savings: { tokens: before - after, percent },
        madeProgress: before > after,
      };
      return { transcript, report };
    },
  };
  return { compactor, passes };
}

describe('the governor', () => {
  it('runs a pass at the threshold, forced, or past the window, and says why it did not otherwise', async () => {
    const { compactor, passes } = scripted({ contextLength: SIZE * 4 });
    const engine = governEngine(compactor);
    expect(engine).toBeInstanceOf(GovernedEngine);
    expect('tools' in engine).toBe(false);
    const idle = await engine.compress(SESSION);
    expect(idle.transcript).toBe(SESSION);
    expect(idle.report.reason).toBe(`below the threshold (${SIZE} < ${SIZE * 2} tokens)`);
    expect(passes).toHaveLength(0);
    await engine.compress(SESSION, { force: true, focusTopic: 'tests' });
    expect(passes[0]).toMatchObject({
      force: true,
      focusTopic: 'tests',
      limitTokens: SIZE * 4,
      compactions: 0,
    });
    await engine.compress(SESSION, { currentTokens: SIZE * 2 });
    expect(passes[1]).toMatchObject({ force: false, compactions: 1 });
    expect(engine.status()).toMatchObject({ name: 'scripted', compactions: 2, thresholdTokens: SIZE * 2 });
  });

  it('learns the prompt size from responses and pauses after two weak passes until a forced one', async () => {
    const { compactor } = scripted({ contextLength: SIZE * 4, savedPercent: 5 });
    const engine = governEngine(compactor);
    expect(engine.shouldCompress()).toBe(false);
    engine.updateFromResponse({ promptTokens: SIZE * 2 });
    expect(engine.shouldCompress()).toBe(true);
    await engine.compress(SESSION, { currentTokens: SIZE * 3 });
    await engine.compress(SESSION, { currentTokens: SIZE * 3 });
    expect(engine.status().blocked).toMatch(/last 2 passes saved under 10 %/);
    expect((await engine.compress(SESSION, { currentTokens: SIZE * 3 })).report.reason).toMatch(/paused/);
    // Past the window the pause does not hold, and the report says the pass ran anyway.
    const mandatory = await engine.compress(SESSION, { currentTokens: SIZE * 5 });
    expect(mandatory.report.notes.at(-1)).toMatch(
      /^compacted although paused, because the prompt was past the window \(automatic compaction is paused/,
    );
    engine.updateModel({ contextLength: SIZE * 4 });
    expect(engine.status().blocked).toBeUndefined();
  });

  it('raises BUDGET_UNREACHABLE with the result when the output is still past the window, after recording it', async () => {
    const { compactor } = scripted({ contextLength: SIZE * 4, afterTokens: SIZE * 5 });
    const engine = governEngine(compactor);
    const error = await engine.compress(SESSION, { force: true }).catch((caught: unknown) => caught);
    expect(isContextOverflow(error)).toBe(true);
    if (!isContextOverflow(error)) return;
    expect(error.details).toMatchObject({ tokens: SIZE * 5, limit: SIZE * 4 });
    expect(error.details.best.transcript).toBe(SESSION);
  });

  it('gives the rules engine the paused-past-the-window note too', async () => {
    const engine = createRuleEngine({ contextLength: 8_000 });
    const tiny = { messages: SESSION.messages.slice(0, 3) };
    await engine.compress(tiny, { force: true });
    await engine.compress(tiny, { force: true });
    expect(engine.status().blocked).toMatch(/paused/);
    const result = await engine.compress(SESSION, { currentTokens: 9_000 }).catch((error: unknown) => {
      if (isContextOverflow(error)) return error.details.best;
      throw error;
    });
    expect(result.report.notes.join('\n')).toMatch(/compacted although paused/);
  });
});
