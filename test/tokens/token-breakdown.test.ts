import { describe, expect, it } from 'vitest';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { tokenBreakdown, UNKNOWN_TOOL } from '../../src/tokens/token-breakdown.js';
import { message, say, transcriptOf } from './helpers.js';

describe('tokenBreakdown', () => {
  const counter = createRoughCounter();
  const call = (id: string, name: string) =>
    ({ type: 'tool-call', id, name, arguments: '{"path":"a.ts"}' }) as const;
  const result = (callId: string, text: string, name?: string) =>
    ({ type: 'tool-result', callId, content: [{ type: 'text', text }], ...(name ? { name } : {}) }) as const;
  const first = transcriptOf(
    say('system', 'You are a coding agent.'),
    say('user', 'Read a.ts and run the tests.'),
    message('assistant', call('1', 'read_file'), call('2', 'run_tests')),
    message('tool', result('1', 'export const a = 1;'), result('2', 'FAIL src/a.test.ts\n'.repeat(30))),
  );
  const second = transcriptOf(message('tool', result('zz', 'orphan'), result('yy', 'named', 'grep')));

  it('splits the total by role, and the parts of each tool by tool name', () => {
    const breakdown = tokenBreakdown([first, second], counter);
    const total = counter.countTranscript(first) + counter.countTranscript(second);
    expect(breakdown.total).toBe(total);
    expect(Object.values(breakdown.byRole).reduce((sum, value) => sum + value, 0)).toBe(total);
    expect(breakdown.byRole.system).toBe(counter.countMessage(first.messages[0]!));
    const [, , calls, results] = first.messages;
    expect(breakdown.byTool['run_tests']).toBe(
      counter.countPart(calls!.parts[1]!) + counter.countPart(results!.parts[1]!),
    );
    expect(breakdown.byTool['grep']).toBe(counter.countPart(second.messages[0]!.parts[1]!));
    expect(breakdown.byTool[UNKNOWN_TOOL]).toBe(counter.countPart(second.messages[0]!.parts[0]!));
    expect(breakdown.counter).toBe('rough');
    expect(breakdown.exact).toBe(false);
  });

  it('lists tools heaviest first', () => {
    const values = Object.values(tokenBreakdown([first, second], counter).byTool);
    expect(values).toEqual([...values].sort((left, right) => right - left));
  });

  it('is all zeros for no transcripts', () => {
    const breakdown = tokenBreakdown([], counter);
    expect(breakdown.total).toBe(0);
    expect(breakdown.byRole).toEqual({ system: 0, user: 0, assistant: 0, tool: 0 });
    expect(breakdown.byTool).toEqual({});
  });
});
