import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRules } from '../../../src/engines/rules/apply-rules.js';
import { compactWithRules, createRuleEngine } from '../../../src/engines/rules/create-rule-engine.js';
import { resolveRuleSettings } from '../../../src/engines/rules/options.js';
import { protectedTailStart } from '../../../src/engines/rules/protected-tail.js';
import { restoreTranscript } from '../../../src/engines/rules/restore-transcript.js';
import type { Message } from '../../../src/model/message.js';
import { findLatestUserRequest } from '../../../src/transforms/find-latest-user-request.js';
import { brokenTranscriptArb, transcriptArb } from '../../transforms/arbitraries.js';
import { deepFreeze, gainedViolations } from '../../transforms/support.js';
import { lostArtifacts } from './support.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 150) };

const settingsArb = fc.record({
  protectLastNTurns: fc.integer({ min: 1, max: 6 }),
  maxToolOutputChars: fc.constantFrom(50, 200, 500),
  truncateHeadLines: fc.integer({ min: 1, max: 10 }),
  truncateTailLines: fc.integer({ min: 0, max: 5 }),
  keepToolSummary: fc.boolean(),
  dropSystemAfterTurn: fc.integer({ min: 0, max: 2 }),
  collapseConsecutiveAssistant: fc.boolean(),
});

/** Generated transcripts, sometimes with system messages later in the conversation. */
const conversationArb = fc
  .tuple(transcriptArb, fc.array(fc.nat(), { maxLength: 2 }))
  .map(([messages, inserts]) => {
    const out = [...messages];
    for (const at of inserts) {
      let index = 1 + (at % out.length);
      while (out[index]?.role === 'tool') index++;
      out.splice(index, 0, {
        role: 'system',
        parts: [{ type: 'text', text: `# Skills\nuse /repo/tools/x.sh ${at}` }],
      });
    }
    return out;
  });

describe('rules engine properties over generated transcripts', () => {
  it('is pure, never adds a provider violation, keeps users, the tail and the latest request, and loses no artifact', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, settingsArb, async (messages, options) => {
        const input = deepFreeze({ messages });
        const { transcript, report } = await compactWithRules(input, options);
        const output = transcript.messages;
        expect(gainedViolations(input.messages, output)).toEqual([]);
        // User messages: every one, the very same object, in the same order.
        expect(output.filter((message) => message.role === 'user')).toEqual(
          input.messages.filter((message) => message.role === 'user'),
        );
        const users = output.filter((message) => message.role === 'user');
        users.forEach((message, index) => {
          expect(message).toBe(input.messages.filter((item) => item.role === 'user')[index]);
        });
        // The protected tail is the same objects at the end.
        const tailStart = protectedTailStart(input.messages, options.protectLastNTurns);
        const tail = input.messages.slice(tailStart);
        expect(output.slice(output.length - tail.length)).toEqual(tail);
        tail.forEach((message, index) => {
          expect(output[output.length - tail.length + index]).toBe(message);
        });
        // The leading system prompt is untouched.
        if (input.messages[0]?.role === 'system') expect(output[0]).toBe(input.messages[0]);
        const latest = findLatestUserRequest(input.messages);
        if (latest !== -1) expect(output[findLatestUserRequest(output)]).toBe(input.messages[latest]);
        const lost = lostArtifacts(input, transcript);
        expect(lost.paths).toEqual([]);
        expect(lost.urls).toEqual([]);
        expect(lost.toolNames).toEqual([]);
        expect(lost.errorLines).toEqual([]);
        expect(lost.commands).toEqual([]);
        if (report.madeProgress) expect(report.tokensAfter.rough).toBeLessThan(report.tokensBefore.rough);
        else expect(transcript).toBe(input);
        expect(report.unchangedPrefix).toBeLessThanOrEqual(output.length);
      }),
      RUNS,
    );
  });

  it('restores every collapsed element exactly: restore-all of the output is the input itself', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, settingsArb, async (messages, options) => {
        const input = deepFreeze({ messages });
        const { transcript } = await compactWithRules(input, options);
        const back = restoreTranscript(transcript, input);
        expect(back.transcript).toBe(input);
        expect(back.unresolved).toEqual([]);
      }),
      RUNS,
    );
  });

  it('restoring any single reference gives a valid transcript holding that element’s originals', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, settingsArb, fc.nat(), async (messages, options, pick) => {
        const input = deepFreeze({ messages });
        const engine = createRuleEngine(options);
        const { transcript } = await engine.compress(input, { force: true });
        const refs = [...JSON.stringify(transcript.messages).matchAll(/ref=([\w.:-]+#[0-9a-f]{8})/g)].map(
          (match) => match[1] as string,
        );
        fc.pre(refs.length > 0);
        const ref = refs[pick % refs.length] as string;
        const back = restoreTranscript(transcript, input, { refs: [ref] });
        expect(back.restored).toContain(ref);
        expect(back.spans).toBe(1);
        expect(gainedViolations(input.messages, back.transcript.messages)).toEqual([]);
        expect(back.transcript.messages.length).toBeGreaterThan(transcript.messages.length - 1);
        // The recall tool returns the original of the same reference.
        expect(await engine.handleToolCall('condense_recall', { ref })).toContain(`ref=${ref}`);
      }),
      RUNS,
    );
  });

  it('never adds a violation to a broken transcript (orphan calls and results) and still restores it', async () => {
    await fc.assert(
      fc.asyncProperty(brokenTranscriptArb, settingsArb, async (messages, options) => {
        const input = deepFreeze({ messages });
        const { transcript } = await compactWithRules(input, options);
        expect(gainedViolations(input.messages, transcript.messages)).toEqual([]);
        expect(restoreTranscript(transcript, input).transcript).toBe(input);
      }),
      RUNS,
    );
  });

  it('is a no-op below the threshold', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, async (messages) => {
        const input = { messages };
        const snapshot = JSON.stringify(input);
        const result = await createRuleEngine({ contextLength: 10_000_000 }).compress(input);
        expect(result.transcript).toBe(input);
        expect(result.report.madeProgress).toBe(false);
        expect(JSON.stringify(input)).toBe(snapshot);
      }),
      RUNS,
    );
  });

  it('across repeated compactions of a growing conversation stays valid and restores from the session log', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArb,
        conversationArb,
        settingsArb,
        fc.boolean(),
        async (first, more, options, cacheFriendly) => {
          const engine = createRuleEngine({ ...options, cacheFriendly });
          const once = await engine.compress(deepFreeze({ messages: first }), { force: true });
          // Fresh call ids, so the grown log stays a valid transcript.
          const appended = more
            .filter((message) => message.role !== 'system')
            .map((message) => JSON.parse(JSON.stringify(message).replaceAll('"call_', '"later_')) as Message);
          const log = { messages: [...first, ...appended] };
          const twice = await engine.compress(
            { messages: [...once.transcript.messages, ...appended] },
            { force: true },
          );
          expect(gainedViolations(log.messages, twice.transcript.messages)).toEqual([]);
          const back = restoreTranscript(twice.transcript, log);
          expect(back.unresolved).toEqual([]);
          expect(back.transcript.messages).toEqual(log.messages);
        },
      ),
      RUNS,
    );
  });

  it('is idempotent: a second pass over its own output changes nothing', () => {
    fc.assert(
      fc.property(conversationArb, settingsArb, (messages, options) => {
        const settings = resolveRuleSettings(options);
        const first = applyRules(deepFreeze(messages), { settings });
        const second = applyRules(first.messages, { settings });
        expect(second.messages).toBe(first.messages);
      }),
      RUNS,
    );
  });

  it('in cache-friendly mode keeps every message of the previous output byte-identical on the next pass', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb, conversationArb, settingsArb, async (first, more, options) => {
        const engine = createRuleEngine({ ...options, cacheFriendly: true });
        const pass1 = await engine.compress(deepFreeze({ messages: first }), { force: true });
        const grown: Message[] = [
          ...pass1.transcript.messages,
          ...more.filter((message) => message.role !== 'system'),
        ];
        const pass2 = await engine.compress({ messages: grown }, { force: true });
        const frozen = protectedTailStart(pass1.transcript.messages, options.protectLastNTurns);
        for (let index = 0; index < frozen; index++) {
          expect(pass2.transcript.messages[index]).toBe(pass1.transcript.messages[index]);
        }
        expect(pass2.report.unchangedPrefix ?? 0).toBeGreaterThanOrEqual(frozen);
      }),
      RUNS,
    );
  });
});
