import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/load-session.js';
import { renderReplay } from '../../src/session/render-replay.js';
import { comparable, jsonl } from './helpers.js';

const SESSION = '5e55e55e-0000-4000-8000-000000000000';

function uuid(n: number): string {
  return `aaaaaaaa-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

function user(n: number, parent: number | null, content: string): object {
  return {
    parentUuid: parent === null ? null : uuid(parent),
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content },
    uuid: uuid(n),
    sessionId: SESSION,
    timestamp: `2025-11-17T23:50:0${n}.000Z`,
  };
}

function assistant(n: number, parent: number, text: string): object {
  return {
    parentUuid: uuid(parent),
    isSidechain: false,
    type: 'assistant',
    message: { id: `msg_${n}`, role: 'assistant', content: [{ type: 'text', text }] },
    uuid: uuid(n),
    sessionId: SESSION,
    timestamp: `2025-11-17T23:50:0${n}.500Z`,
  };
}

function queue(operation: string, content?: unknown): object {
  return {
    type: 'queue-operation',
    operation,
    timestamp: '2025-11-17T23:50:00.000Z',
    sessionId: SESSION,
    ...(content === undefined ? {} : { content }),
  };
}

function load(records: readonly object[]) {
  const bytes = jsonl(records);
  const fast = loadSession(bytes);
  expect(comparable(fast)).toEqual(comparable(loadSession(bytes, { prefilter: false })));
  return fast;
}

describe('prompts that exist only in the prompt queue', () => {
  it('shows a prompt still queued when the log ends, after the messages written before it', () => {
    const session = load([
      user(1, null, 'Build the parser'),
      assistant(2, 1, 'Working on it.'),
      queue('enqueue', [{ type: 'text', text: 'also add tests please' }]),
    ]);
    expect(session.queuedPrompts).toEqual([
      expect.objectContaining({ text: 'also add tests please', status: 'pending', line: 3, afterMessage: 2 }),
    ]);
    const text = renderReplay(session);
    expect(text).toContain('queued prompt (line 3; still queued when the log ends, never sent)');
    expect(text.indexOf('also add tests please')).toBeGreaterThan(text.indexOf('Working on it.'));
  });

  it('leaves out a queued prompt that a later message carries, typed or run as a slash command', () => {
    const session = load([
      queue('enqueue', [{ type: 'text', text: '/init' }]),
      queue('dequeue'),
      user(
        1,
        null,
        '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>',
      ),
      assistant(2, 1, 'Reading the code.'),
      queue('enqueue', 'and keep it short'),
      queue('dequeue'),
      user(3, 2, 'and keep it short'),
    ]);
    expect(session.queuedPrompts).toEqual([]);
  });

  it('reports a withdrawn prompt and one taken from the queue that no message holds', () => {
    const session = load([
      user(1, null, 'Start'),
      queue('enqueue', 'first idea'),
      queue('enqueue', 'second idea'),
      queue('remove'),
      queue('dequeue'),
      assistant(2, 1, 'Done.'),
    ]);
    expect(session.queuedPrompts.map((prompt) => [prompt.text, prompt.status])).toEqual([
      ['first idea', 'dequeued'],
      ['second idea', 'removed'],
    ]);
  });
});
