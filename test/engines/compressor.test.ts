import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/engines/budget-error.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { Message } from '../../src/model/message.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { checkpointOf, parseCheckpoint, renderCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { assistant, call, deepFreeze, long, result, system, tool, user } from '../transforms/support.js';
import {
  checkpointIndices,
  exampleSession,
  failingSummarizer,
  latestRequest,
  recordingSummarizer,
} from './support.js';

const SMALL = { contextLength: 16_000 };

function session(steps: number): Message[] {
  const messages: Message[] = [system('You are a coding agent.'), user('Fix the failing build in /repo.')];
  for (let step = 0; step < steps; step++) {
    messages.push(
      assistant(
        `Step ${step}: checking.`,
        call(`c${step}`, 'bash', { command: `npm run check -- --part ${step}` }),
      ),
      tool(result(`c${step}`, long(`output of step ${step} in /repo/src/part${step}.ts`, 2_000))),
    );
  }
  messages.push(user('Now also update the changelog, and do not touch package.json.'));
  messages.push(assistant('On it.', call('last', 'read_file', { path: '/repo/CHANGELOG.md' })));
  messages.push(tool(result('last', long('changelog', 800))));
  return messages;
}

describe('compressor engine', () => {
  it('leaves a transcript under the threshold untouched (same object) unless forced', async () => {
    const transcript = { messages: session(3) };
    const engine = createCompressor({ contextLength: 200_000 });
    const result = await engine.compress(transcript);
    expect(result.transcript).toBe(transcript);
    expect(result.report.madeProgress).toBe(false);
    expect(result.report.reason).toMatch(/below the threshold/);
  });

  it('compacts a forced pass into a valid transcript that keeps the system prompt and latest request verbatim', async () => {
    const input = deepFreeze({ messages: session(40) });
    const { transcript, report } = await createCompressor(SMALL).compress(input, { force: true });
    expect(report.madeProgress).toBe(true);
    expect(report.tokensAfter.rough).toBeLessThan(report.tokensBefore.rough);
    expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
    expect(transcript.messages[0]).toBe(input.messages[0]);
    const latest = latestRequest(transcript.messages);
    expect(latest?.text).toBe('Now also update the changelog, and do not touch package.json.');
    const checkpoints = checkpointIndices(transcript.messages);
    expect(checkpoints).toHaveLength(1);
    expect(latest?.index ?? -1).toBeGreaterThanOrEqual(checkpoints[0] as number);
    expect(report.summary.source).toBe('extractive');
  });

  it('updates the previous checkpoint on the next pass instead of nesting it', async () => {
    const engine = createCompressor(SMALL);
    const first = await engine.compress({ messages: session(30) }, { force: true });
    const grown = [...first.transcript.messages];
    for (let step = 0; step < 30; step++) {
      grown.push(
        assistant(`More ${step}.`, call(`m${step}`, 'grep', { pattern: `needle${step}`, path: '/repo/lib' })),
        tool(result(`m${step}`, long(`matches ${step}`, 1_500))),
      );
    }
    grown.push(user('Summarise what changed.'));
    const second = await engine.compress({ messages: grown }, { force: true });
    expect(second.report.summary.updatedPrevious).toBe(true);
    const checkpoints = checkpointIndices(second.transcript.messages);
    expect(checkpoints).toHaveLength(1);
    const body = checkpointOf(second.transcript.messages[checkpoints[0] as number] as Message)?.body ?? '';
    expect(parseCheckpoint(body)).toBeUndefined();
    expect(body).not.toContain('[condense checkpoint');
    expect(verifyTranscript(second.transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('continues a transcript compacted by Hermes, updating its summary', async () => {
    const summarizer = recordingSummarizer();
    const messages = [
      system('agent'),
      user('[CONTEXT SUMMARY]: Earlier we migrated the database to v3.'),
      ...session(30).slice(1),
    ];
    await createCompressor({ ...SMALL, model: summarizer }).compress({ messages }, { force: true });
    expect(summarizer.requests[0]?.previousSummary).toBe('Earlier we migrated the database to v3.');
    expect(summarizer.requests[0]?.messages.some((message) => checkpointOf(message) !== undefined)).toBe(
      false,
    );
  });

  it('gives the focus topic and the latest request to the summarizer', async () => {
    const summarizer = recordingSummarizer();
    await createCompressor({ ...SMALL, model: summarizer }).compress(
      { messages: session(30) },
      { force: true, focusTopic: 'the build' },
    );
    expect(summarizer.requests[0]?.focusTopic).toBe('the build');
    expect(summarizer.requests[0]?.latestUserRequest).toBe(
      'Now also update the changelog, and do not touch package.json.',
    );
  });

  it('aborts and leaves the transcript unchanged when the model refuses the credentials', async () => {
    const transcript = { messages: session(30) };
    const result = await createCompressor({ ...SMALL, model: failingSummarizer('auth') }).compress(
      transcript,
      { force: true },
    );
    expect(result.report.aborted).toBe(true);
    expect(result.transcript).toBe(transcript);
    expect(result.report.errors.join(' ')).toMatch(/auth/);
  });

  it('falls back to the extractive checkpoint when the model keeps failing, and says so', async () => {
    const result = await createCompressor({ ...SMALL, model: failingSummarizer('timeout') }).compress(
      { messages: session(30) },
      { force: true },
    );
    expect(result.report.aborted).toBe(false);
    expect(result.report.summary.source).toBe('extractive');
    expect(result.report.errors.length).toBeGreaterThan(0);
    expect(result.report.errors.join(' ')).not.toMatch(/checkpoint body/);
  });

  it('never returns the error text as the summary', async () => {
    const result = await createCompressor({ ...SMALL, model: failingSummarizer('other') }).compress(
      { messages: session(30) },
      { force: true },
    );
    const checkpoint = checkpointIndices(result.transcript.messages)[0] as number;
    const body = checkpointOf(result.transcript.messages[checkpoint] as Message)?.body ?? '';
    expect(body).not.toContain('simulated other failure');
  });

  it('keeps the system prompt bytes by default and adds a note only when asked', async () => {
    const input = { messages: session(30) };
    const plain = await createCompressor(SMALL).compress(input, { force: true });
    expect(plain.transcript.messages[0]).toBe(input.messages[0]);
    const noted = await createCompressor({ ...SMALL, noteInSystemPrompt: true }).compress(input, {
      force: true,
    });
    expect(JSON.stringify(noted.transcript.messages[0])).toContain('condense note');
  });

  it('blocks automatic compaction after two passes that leave the real prompt over the threshold', async () => {
    const engine = createCompressor(SMALL);
    const threshold = engine.thresholdTokens;
    expect(engine.shouldCompress(threshold + 1)).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      await engine.compress({ messages: session(30) }, { force: true });
      engine.updateFromResponse({ promptTokens: threshold + 10 });
    }
    expect(engine.shouldCompress(threshold + 1)).toBe(false);
    expect(engine.status().blocked).toMatch(/paused/);
    const manual = await engine.compress({ messages: session(30) }, { force: true });
    expect(manual.report.madeProgress).toBe(true);
    engine.updateFromResponse({ promptTokens: threshold - 1 });
    expect(engine.shouldCompress(threshold + 1)).toBe(true);
  });

  it('counts a no-op pass as ineffective and stops trying after two', async () => {
    const engine = createCompressor(SMALL);
    const tiny = { messages: [system('s'), user('hi'), assistant('hello')] };
    await engine.compress(tiny, { force: true });
    await engine.compress(tiny, { force: true });
    expect(engine.shouldCompress(engine.thresholdTokens + 1)).toBe(false);
    // The pause only skips optional passes: past the window compaction is never paused.
    expect(engine.shouldCompress(engine.status().contextLength + 1)).toBe(true);
  });

  it('never makes a transcript bigger', async () => {
    const messages = [
      system('agent'),
      user('a'),
      assistant('b'),
      user('c'),
      assistant('d'),
      user('e'),
      assistant('f'),
      user('g'),
    ];
    const result = await createCompressor({
      ...SMALL,
      model: recordingSummarizer(long('verbose', 5_000)),
    }).compress({ messages }, { force: true });
    expect(result.report.tokensAfter.rough).toBeLessThanOrEqual(result.report.tokensBefore.rough);
  });

  it('raises with the smallest result, folded around the request, when the request alone is past the window', async () => {
    const request = long('Update every order handler and validate each field', 3_000);
    const messages = [...session(6).slice(0, -3), user(request)];
    const input = deepFreeze({ messages });
    const engine = createCompressor({ contextLength: 300 });
    const error = await engine.compress(input, { force: true }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isContextOverflow(error)).toBe(true);
    if (!isContextOverflow(error)) return;
    const { best, tokens, limit, irreducible } = error.details;
    expect(limit).toBe(300);
    expect(irreducible).toBeGreaterThan(limit);
    // Not the input sent back: everything but the system prompt and the request is folded.
    expect(tokens).toBeLessThan(irreducible + 200);
    expect(best.report.tokensAfter.rough).toBe(tokens);
    expect(latestRequest(best.transcript.messages)?.text).toBe(request);
    expect(verifyTranscript(best.transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('stubs calls whose results were cut away when asked, instead of removing them', async () => {
    const messages = [...session(30)];
    messages.splice(messages.length - 1, 1);
    const stripped = await createCompressor(SMALL).compress({ messages }, { force: true });
    expect(verifyTranscript(stripped.transcript)).toEqual([]);
    const stubbed = await createCompressor({ ...SMALL, orphanCalls: 'stub' }).compress(
      { messages },
      { force: true },
    );
    expect(verifyTranscript(stubbed.transcript)).toEqual([]);
    expect(JSON.stringify(stubbed.transcript.messages.at(-1))).toContain('last');
  });

  it('compacts the example coding session to under half its size with the README command defaults', async () => {
    const result = await createCompressor().compress(exampleSession(), { force: true });
    expect(result.report.savings.percent).toBeGreaterThan(50);
    expect(verifyTranscript(result.transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('rejects unknown options by name', () => {
    expect(() => createCompressor({ contextLenght: 5 } as never)).toThrow(/contextLenght/);
  });

  it('recognises its own checkpoint header and source', () => {
    const parsed = parseCheckpoint(renderCheckpoint('body text', 'model'));
    expect(parsed).toEqual({ body: 'body text', author: 'condense', source: 'model' });
  });
});

describe('compressor engine after a restart', () => {
  it('recovers its own checkpoint from the transcript and updates it', async () => {
    const first = await createCompressor(SMALL).compress({ messages: session(30) }, { force: true });
    const grown = [...first.transcript.messages];
    for (let step = 0; step < 25; step++) {
      grown.push(
        assistant(`Again ${step}.`, call(`r${step}`, 'bash', { command: `make test-${step}` })),
        tool(result(`r${step}`, long(`run ${step}`, 1_500))),
      );
    }
    grown.push(user('Next: run the linter.'));
    const summarizer = recordingSummarizer();
    const fresh = createCompressor({ ...SMALL, model: summarizer });
    const second = await fresh.compress({ messages: grown }, { force: true });
    expect(second.report.summary.updatedPrevious).toBe(true);
    expect(summarizer.requests[0]?.previousSummary).toBeDefined();
    expect(summarizer.requests[0]?.previousSummary).not.toContain('[condense checkpoint');
  });

  it('continues a transcript that Hermes compacted with its current prefix', async () => {
    const hermes =
      '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below. (prefix text)\n## Goal\nShip the parser';
    const summarizer = recordingSummarizer();
    const messages = [system('agent'), user(hermes), ...session(30).slice(1)];
    await createCompressor({ ...SMALL, model: summarizer }).compress({ messages }, { force: true });
    expect(summarizer.requests[0]?.previousSummary).toBe('## Goal\nShip the parser');
  });
});

describe('compressor engine on one long task', () => {
  it('keeps compacting dozens of steps after a single request, with at most one checkpoint on each side of it', async () => {
    const engine = createCompressor(SMALL);
    let messages: Message[] = session(30);
    for (let round = 0; round < 3; round++) {
      const pass = await engine.compress({ messages }, { force: true });
      expect(pass.report.madeProgress).toBe(true);
      messages = [...pass.transcript.messages];
      const latest = latestRequest(messages);
      expect(latest?.text).toBe('Now also update the changelog, and do not touch package.json.');
      const checkpoints = checkpointIndices(messages);
      expect(checkpoints.length).toBeLessThanOrEqual(2);
      expect(checkpoints.filter((index) => index > (latest?.index ?? 0)).length).toBeLessThanOrEqual(1);
      for (const index of checkpoints) {
        expect(parseCheckpoint(checkpointOf(messages[index] as Message)?.body ?? '')).toBeUndefined();
      }
      expect(verifyTranscript({ messages }, { provider: 'anthropic' })).toEqual([]);
      for (let step = 0; step < 20; step++) {
        messages.push(
          assistant(
            `Round ${round} step ${step}.`,
            call(`x${round}-${step}`, 'bash', { command: `npm test -- ${step}` }),
          ),
          tool(result(`x${round}-${step}`, long(`tests ${round}.${step}`, 1_500))),
        );
      }
    }
  });
});
