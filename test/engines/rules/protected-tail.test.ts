import { describe, expect, it } from 'vitest';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import { protectedTailStart } from '../../../src/engines/rules/protected-tail.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { assistant, deepFreeze, user } from '../../transforms/support.js';
import { agentLoop } from './support.js';

describe('rules 5 and 6: user messages and the protected tail', () => {
  it('counts each assistant step as a turn, so one request followed by many steps still compacts', async () => {
    const input = deepFreeze({ messages: agentLoop(30) });
    expect(input.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    const { transcript, report } = await compactWithRules(input);
    expect(report.madeProgress).toBe(true);
    expect(report.savings.percent).toBeGreaterThan(50);
    const tailStart = protectedTailStart(input.messages, 5);
    const tail = input.messages.slice(tailStart);
    expect(transcript.messages.slice(-tail.length)).toEqual(tail);
    tail.forEach((message, index) => {
      expect(transcript.messages[transcript.messages.length - tail.length + index]).toBe(message);
    });
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('never touches a user message, however long', async () => {
    const messages = agentLoop(12);
    messages.splice(5, 0, user(`Here is the log:\n${'x'.repeat(20_000)}`));
    const input = deepFreeze({ messages });
    const { transcript } = await compactWithRules(input, { protectLastNTurns: 2 });
    expect(transcript.messages.filter((message) => message.role === 'user')).toEqual(
      input.messages.filter((message) => message.role === 'user'),
    );
    expect(transcript.messages).toContain(input.messages[5]);
  });

  it('changes nothing when the transcript has no more steps than the protected tail', async () => {
    const input = { messages: [user('hi'), assistant('hello'), user('bye'), assistant('bye')] };
    const { transcript, report } = await compactWithRules(input);
    expect(transcript).toBe(input);
    expect(report.madeProgress).toBe(false);
    expect(report.reason).toMatch(/no rule applies/);
    expect(protectedTailStart(input.messages, 5)).toBe(0);
  });
});
