import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { renderCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { findBoundaries } from '../../src/transforms/find-boundaries.js';
import {
  assistant,
  call,
  charCounter,
  deepFreeze,
  long,
  result,
  steps,
  system,
  tool,
  user,
} from './support.js';

const counter = charCounter();

function bounds(messages: Message[], options: Partial<Parameters<typeof findBoundaries>[1]> = {}) {
  return findBoundaries(deepFreeze(messages), { counter, tailTokenBudget: 300, ...options });
}

function codes(result: ReturnType<typeof findBoundaries>): string[] {
  return result.reasons.map((reason) => reason.code);
}

describe('findBoundaries: the head', () => {
  it('always keeps the system prompts, then protectFirstN messages on a first compaction', () => {
    const messages = [
      system('a'),
      system('b'),
      user('task'),
      assistant('ok'),
      user('more'),
      ...steps(20),
      user('now'),
    ];
    expect(bounds(messages).headEnd).toBe(5);
    expect(bounds(messages, { protectFirstN: 0 }).headEnd).toBe(2);
  });

  it('decays protectFirstN to zero after the first compaction or when a checkpoint is present', () => {
    const messages = [system('s'), user('task'), assistant('ok'), user('more'), ...steps(20), user('now')];
    expect(bounds(messages, { compactionCount: 1 }).headEnd).toBe(1);
    const checkpointed = [system('s'), user(renderCheckpoint('earlier', 'model')), ...messages.slice(1)];
    const result = bounds(checkpointed);
    expect(result.headEnd).toBe(1);
    expect(codes(result)).toContain('head-decayed');
  });

  it('extends the head over the results of a parallel call it ends on', () => {
    const messages = [
      system('s'),
      user('task'),
      assistant('', call('a', 'Read', { path: 'x' }), call('b', 'Read', { path: 'y' })),
      tool(result('a', 'x')),
      tool(result('b', 'y')),
      ...steps(20),
      user('now'),
    ];
    const found = bounds(messages, { protectFirstN: 2 });
    expect(found.headEnd).toBe(5);
    expect(codes(found)).toContain('head-tool-results');
  });
});

describe('findBoundaries: the tail', () => {
  it('keeps what fits in the token budget, counted from the end', () => {
    const messages = [system('s'), user('task'), ...steps(30), assistant('done'), user('thanks')];
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 1000 });
    const tailTokens = messages.slice(result.tailStart).reduce((sum, m) => sum + counter.countMessage(m), 0);
    expect(tailTokens).toBeLessThanOrEqual(1500);
    expect(result.tailStart).toBeGreaterThan(10);
  });

  it('lets one oversized message overrun the budget up to 1.5 ×', () => {
    const big = assistant(long('big answer', 1600));
    const messages = [system('s'), user('task'), ...steps(10), big, user('a'), assistant('b'), user('c')];
    const size = counter.countMessage(big);
    const within = bounds(messages, {
      protectFirstN: 0,
      tailTokenBudget: Math.ceil(size / 1.4),
      protectLastN: 3,
    });
    expect(within.tailStart).toBe(messages.indexOf(big));
    const beyond = bounds(messages, {
      protectFirstN: 0,
      tailTokenBudget: Math.floor(size / 1.6),
      protectLastN: 3,
    });
    expect(beyond.tailStart).toBeGreaterThan(messages.indexOf(big));
  });

  it('keeps a floor of messages however large they are', () => {
    const messages = [system('s'), user('task'), ...steps(10, 8000), assistant(long('final', 8000))];
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 10 });
    expect(messages.length - result.tailStart).toBeGreaterThanOrEqual(3);
    expect(codes(result)).toContain('tail-floor');
  });

  it('walks again with the raw budget when the whole transcript fits under the soft ceiling', () => {
    const messages = [system('s'), user('task'), ...steps(6, 100), user('next')];
    const total = messages.slice(1).reduce((sum, m) => sum + counter.countMessage(m), 0);
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: Math.ceil(total / 1.2) });
    expect(codes(result)).toContain('tail-raw-budget');
    expect(result.tailStart).toBeGreaterThan(result.headEnd);
  });

  it('never starts among tool results, parallel calls included', () => {
    const messages = [
      system('s'),
      user('task'),
      ...steps(10),
      assistant(
        '',
        call('p1', 'Read', { path: 'a' }),
        call('p2', 'Read', { path: 'b' }),
        call('p3', 'Read', { path: 'c' }),
      ),
      tool(result('p1', long('a', 200))),
      tool(result('p2', long('b', 200))),
      tool(result('p3', long('c', 200))),
      assistant('read them'),
    ];
    for (let budget = 10; budget < 600; budget += 7) {
      const { tailStart } = bounds(messages, { protectFirstN: 0, tailTokenBudget: budget, protectLastN: 1 });
      expect(messages[tailStart]?.role).not.toBe('tool');
    }
  });

  it('charges images a fixed cost, not their payload size', () => {
    const withImage = (data: string): Message[] => [
      system('s'),
      user('task'),
      ...steps(6, 50),
      user('see', { type: 'image', source: { kind: 'base64', data, mediaType: 'image/png' } }),
      assistant('seen'),
    ];
    const rough = createRoughCounter();
    const small = findBoundaries(deepFreeze(withImage('AAAA')), {
      counter: rough,
      tailTokenBudget: 1400,
      protectFirstN: 0,
    });
    const huge = findBoundaries(deepFreeze(withImage('A'.repeat(2_000_000))), {
      counter: rough,
      tailTokenBudget: 1400,
      protectFirstN: 0,
    });
    expect(huge.tailStart).toBe(small.tailStart);
    expect(small.tailStart).toBeLessThan(13);
  });
});

/** Tool steps whose assistant messages say nothing visible. */
function silent(count: number, output: number) {
  return steps(count, output, 'q').map((message) =>
    message.role === 'assistant'
      ? { ...message, parts: message.parts.filter((part) => part.type !== 'text') }
      : message,
  );
}

describe('findBoundaries: anchors', () => {
  it('reaches back to the latest user request when that adds little (#10896)', () => {
    const messages = [system('s'), user('task'), ...steps(20), user('new request'), ...steps(2, 40, 't')];
    const request = 42;
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 60, protectLastN: 3 });
    expect(result.latestUserRequest).toBe(request);
    expect(result.tailStart).toBeLessThanOrEqual(request);
    expect(codes(result)).toContain('request-moved-tail');
  });

  it('keeps a request with long stretches on both sides alone, folding both, never summarising it', () => {
    const messages = [system('s'), user('task'), ...steps(20), user('new request'), ...steps(12, 400, 't')];
    const request = 42;
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 100, protectLastN: 3 });
    expect(result.keepRequestAt).toBe(request);
    expect(result.headEnd).toBeLessThan(request);
    expect(result.tailStart).toBeGreaterThan(request);
    expect(codes(result)).toContain('request-kept-alone');
  });

  it('keeps a far-back request with its reply in the head and compacts the dozens of steps after it', () => {
    const messages = [system('s'), user('refactor the parser'), ...steps(40), assistant('working on it')];
    const result = bounds(messages, { compactionCount: 1, tailTokenBudget: 400 });
    expect(result.latestUserRequest).toBe(1);
    expect(result.headEnd).toBe(4);
    expect(result.tailStart).toBeGreaterThan(60);
    expect(codes(result)).toContain('request-moved-head');
  });

  it('folds an earlier checkpoint together with the long stretch after a short request', () => {
    const messages = [system('s'), user(renderCheckpoint('old notes', 'model')), user('go on'), ...steps(30)];
    const result = bounds(messages, { tailTokenBudget: 300 });
    expect(result.keepRequestAt).toBe(2);
    expect(result.headEnd).toBe(1);
    expect(result.previousCheckpointIndex).toBe(1);
    expect(result.headCheckpointIndex).toBeUndefined();
  });

  it('pulls the last visible assistant reply into the tail (#29824)', () => {
    const messages = [
      system('s'),
      user('task'),
      ...steps(10),
      assistant('Here is the plan: first X, then Y.'),
      ...silent(6, 60),
    ];
    const reply = 22;
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 150, protectLastN: 1 });
    expect(result.tailStart).toBeLessThanOrEqual(reply);
    expect(codes(result)).toContain('last-assistant');
  });

  it('leaves a reply dozens of silent steps back to the checkpoint', () => {
    const messages = [
      system('s'),
      user('task'),
      ...steps(10),
      assistant('Here is the plan: first X, then Y.'),
      ...silent(30, 300),
    ];
    const result = bounds(messages, { protectFirstN: 0, tailTokenBudget: 300, protectLastN: 1 });
    expect(result.tailStart).toBeGreaterThan(40);
    expect(codes(result)).not.toContain('last-assistant');
  });

  it('reports an earlier checkpoint in the middle so it is updated, not summarised again', () => {
    for (const checkpoint of [
      renderCheckpoint('earlier work', 'extractive'),
      '[CONTEXT SUMMARY]: earlier work',
    ]) {
      const messages = [system('s'), user(checkpoint), user('next task'), ...steps(30), user('latest')];
      const result = bounds(messages, { tailTokenBudget: 200 });
      expect(result.previousCheckpointIndex).toBe(1);
      expect(result.headEnd).toBeLessThanOrEqual(1);
      expect(codes(result)).toContain('previous-checkpoint');
    }
  });

  it('handles consecutive messages of the same role', () => {
    const messages = [
      system('s'),
      user('part one'),
      user('part two'),
      assistant('thinking aloud'),
      assistant('', call('c', 'Bash', { command: 'ls' })),
      tool(result('c', long('ls'))),
      ...steps(15),
      user('follow-up'),
      user('and another thing'),
      assistant('ok'),
      assistant('done'),
    ];
    const found = bounds(messages, { protectFirstN: 1, tailTokenBudget: 50, protectLastN: 3 });
    expect(found.headEnd).toBe(2);
    expect(found.latestUserRequest).toBe(messages.length - 3);
    expect(found.tailStart).toBeLessThanOrEqual(messages.length - 4);
    expect(messages[found.tailStart]?.role).not.toBe('tool');
  });

  it('says when there is nothing to compact', () => {
    const result = bounds([system('s'), user('hi'), assistant('hello')]);
    expect(result.tailStart).toBe(result.headEnd);
    expect(codes(result)).toContain('nothing-to-compact');
    const empty = bounds([]);
    expect([empty.headEnd, empty.tailStart]).toEqual([0, 0]);
  });
});
