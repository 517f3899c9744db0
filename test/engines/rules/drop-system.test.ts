import { describe, expect, it } from 'vitest';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../../src/model/message.js';
import { messageText } from '../../../src/model/message-helpers.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { assistant, call, deepFreeze, long, result, system, tool, user } from '../../transforms/support.js';

const SOUL = `# SOUL.md\nYou are Timmy.\n## Skills\n- deploy (see /home/timmy/skills/deploy.md)\n## MCP servers\n- github https://mcp.example.com/github\n${long('identity', 4_000)}`;

function session(): Message[] {
  const messages: Message[] = [system('You are Timmy.'), user('Deploy the site.')];
  for (let turn = 0; turn < 3; turn++) {
    messages.push(system(SOUL));
    messages.push(assistant(`Turn ${turn}.`, call(`c${turn}`, 'bash', { command: `deploy --step ${turn}` })));
    messages.push(tool(result(`c${turn}`, long(`deploy ${turn}`, 800))));
    messages.push(user(`Continue ${turn}.`));
  }
  for (let step = 0; step < 3; step++) messages.push(assistant(`tail ${step}`));
  return messages;
}

describe('rule 3: drop system messages after the first turn', () => {
  it('replaces later system messages by one line saying what was there, and keeps the leading system prompt', async () => {
    const input = deepFreeze({ messages: session() });
    const { transcript, report } = await compactWithRules(input, { protectLastNTurns: 3 });
    expect(transcript.messages[0]).toBe(input.messages[0]);
    const markers = transcript.messages.filter((message) => message.role === 'system').slice(1);
    expect(markers).toHaveLength(3);
    for (const marker of markers) {
      const text = messageText(marker);
      expect(text.split('\n')).toHaveLength(1);
      expect(text).toMatch(
        /^\[system message dropped: "# SOUL\.md" \+ Skills \+ MCP servers \([\d,]+ chars\) · ref=m\d+#[0-9a-f]{8}/,
      );
      expect(text).toContain('/home/timmy/skills/deploy.md');
      expect(text).toContain('https://mcp.example.com/github');
    }
    expect(report.rules?.droppedSystem).toBe(3);
    expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
  });

  it('counts turns: drop_system_after_turn 2 keeps the system message of the first user turn, 0 keeps them all', async () => {
    const input = { messages: session() };
    const second = await compactWithRules(input, { protectLastNTurns: 3, dropSystemAfterTurn: 2 });
    expect(second.report.rules?.droppedSystem).toBe(2);
    expect(second.transcript.messages[2]).toBe(input.messages[2]);
    const off = await compactWithRules(input, { protectLastNTurns: 3, dropSystemAfterTurn: 0 });
    expect(off.report.rules?.droppedSystem).toBe(0);
  });

  it('never drops a system message inside the protected tail', async () => {
    const messages = session();
    messages.splice(messages.length - 1, 0, system(SOUL));
    const { transcript } = await compactWithRules({ messages }, { protectLastNTurns: 3 });
    expect(transcript.messages.at(-2)).toBe(messages.at(-2));
  });
});
