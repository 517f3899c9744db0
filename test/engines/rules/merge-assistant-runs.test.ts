import { describe, expect, it } from 'vitest';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../../src/model/message.js';
import { messageText } from '../../../src/model/message-helpers.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { renderCheckpoint } from '../../../src/transforms/checkpoint-text.js';
import { assistant, call, long, result, system, tool, user } from '../../transforms/support.js';

function thinkingSteps(): Message[] {
  return [
    system('agent'),
    user('Why does the export fail?'),
    assistant(`Thinking about /srv/app/export.ts first. ${long('thought one', 600)}`),
    assistant(`Maybe https://status.example.com explains it. ${long('thought two', 600)}`),
    assistant('Let me check the log.', call('log', 'bash', { command: 'tail -n 5 /var/log/export.log' })),
    tool(result('log', 'RangeError: Invalid time value\nExit code 1')),
    assistant('tail 1'),
    user('ok'),
    assistant('tail 2'),
  ];
}

describe('rule 4: collapse runs of consecutive assistant messages', () => {
  it('keeps the last message of a run with its tool calls, and a marker per dropped one with its paths and URLs', async () => {
    const input = { messages: thinkingSteps() };
    const { transcript, report } = await compactWithRules(input, { protectLastNTurns: 2 });
    expect(report.rules?.mergedAssistant).toBe(2);
    const merged = transcript.messages[2] as Message;
    const text = messageText(merged);
    expect(text).toMatch(
      /^\[condensed: 2 earlier assistant messages folded into this one · ref=m4#[0-9a-f]{8}\]/,
    );
    expect(text).toMatch(
      /\[assistant message dropped: "Thinking about \/srv\/app\/export\.ts first\. thought one" \([\d,]+ chars\) · ref=m2#[0-9a-f]{8}/,
    );
    expect(text).toContain('https://status.example.com');
    expect(text).toContain('Let me check the log.');
    expect(merged.parts.some((part) => part.type === 'tool-call' && part.id === 'log')).toBe(true);
    expect(transcript.messages[3]).toBe(input.messages[5]);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('folds the collapsed steps of an agent loop into one message that keeps every collapsed line', async () => {
    const messages: Message[] = [system('agent'), user('Read everything.')];
    for (let step = 0; step < 8; step++) {
      messages.push(assistant('', call(`r${step}`, 'read_file', { path: `/repo/f${step}.ts` })));
      messages.push(tool(result(`r${step}`, long(`file ${step}`, 700))));
    }
    messages.push(assistant('All read.'), user('thanks'), assistant('welcome'));
    const { transcript, report } = await compactWithRules({ messages }, { protectLastNTurns: 2 });
    const text = transcript.messages.map(messageText).join('\n');
    for (let step = 0; step < 7; step++) expect(text).toContain(`[tool: read_file /repo/f${step}.ts`);
    // The last step stays a real call: folding it would leave two assistant messages in a row.
    expect(report.rules?.heldBack).toBe(1);
    expect(JSON.stringify(transcript.messages)).toContain('"callId":"r7"');
    expect(transcript.messages.filter((message) => message.role === 'assistant')).toHaveLength(3);
  });

  it('leaves runs alone when the rule is off, and never folds an assistant checkpoint', async () => {
    const off = await compactWithRules(
      { messages: thinkingSteps() },
      { protectLastNTurns: 2, collapseConsecutiveAssistant: false },
    );
    expect(off.report.rules?.mergedAssistant).toBe(0);
    const messages = thinkingSteps();
    messages.splice(2, 1, assistant(renderCheckpoint('Earlier: migrated the DB.', 'extractive')));
    const kept = await compactWithRules({ messages }, { protectLastNTurns: 2 });
    expect(kept.transcript.messages[2]).toBe(messages[2]);
  });
});
