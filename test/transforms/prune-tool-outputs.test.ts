import { describe, expect, it } from 'vitest';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { pruneBoundary, pruneToolOutputs } from '../../src/transforms/prune-tool-outputs.js';
import {
  assistant,
  call,
  callArguments,
  charCounter,
  deepFreeze,
  image,
  long,
  result,
  resultText,
  steps,
  tool,
  user,
} from './support.js';

describe('pruneBoundary', () => {
  it('protects the last protectLastN messages without a token budget', () => {
    const messages = [user('go'), ...steps(20)];
    expect(pruneBoundary(messages, { protectLastN: 6 })).toBe(35);
  });

  it('protects messages within the token budget, never fewer than protectLastN', () => {
    const counter = charCounter();
    const messages = [user('go'), ...steps(20, 400)];
    const perStep = counter.countMessage(messages[1] as never) + counter.countMessage(messages[2] as never);
    const boundary = pruneBoundary(messages, { counter, protectTailTokens: perStep * 5, protectLastN: 2 });
    expect(boundary).toBeGreaterThanOrEqual(29);
    expect(boundary).toBeLessThanOrEqual(31);
    expect(pruneBoundary(messages, { counter, protectTailTokens: 1, protectLastN: 6 })).toBe(35);
  });

  it('never separates tool results from their call', () => {
    const messages = [user('go'), ...steps(20)];
    for (let last = 1; last < 40; last++) {
      const boundary = pruneBoundary(messages, { protectLastN: last });
      expect(messages[boundary]?.role).not.toBe('tool');
    }
  });
});

describe('pruneToolOutputs', () => {
  it('runs dedupe, digests, argument shrinking and image stripping before the protected tail', () => {
    const same = long('same');
    const messages = deepFreeze([
      user('go'),
      assistant('', call('r1', 'Read', { file_path: '/a.ts' })),
      tool(result('r1', same)),
      assistant('', call('w1', 'Write', { file_path: '/b.ts', content: 'x'.repeat(2000) })),
      tool(result('w1', 'written')),
      assistant('', call('s1', 'screenshot')),
      tool(result('s1', 'shot', { extra: [image()] })),
      assistant('', call('b1', 'Bash', { command: 'make' })),
      tool(result('b1', long('make output'))),
      ...steps(3),
      assistant('', call('r2', 'Read', { file_path: '/a.ts' })),
      tool(result('r2', same)),
    ]);
    const out = pruneToolOutputs(messages, { protectLastN: 8, counter: createRoughCounter() });
    expect(out.boundary).toBe(9);
    expect(out.report).toEqual({ deduplicated: 1, digested: 1, argumentsShrunk: 1, imagesStripped: 1 });
    expect(resultText(out.messages, 'r1')).toContain(
      '[duplicate output] identical to the later output of Read call r2',
    );
    expect(resultText(out.messages, 'b1')).toMatch(/^\[output condensed\] Bash `make`/);
    expect(JSON.parse(callArguments(out.messages, 'w1')).content).toContain('chars truncated]');
    for (let index = out.boundary; index < messages.length; index++)
      expect(out.messages[index]).toBe(messages[index]);
  });

  it('strips old images in tool results, and user attachments only when asked', () => {
    const messages = deepFreeze([
      user('see', image('https://x.test/ui.png')),
      assistant('', call('s1', 'screenshot')),
      tool(result('s1', 'shot', { extra: [image()] })),
      ...steps(4),
      user('next'),
    ]);
    expect(pruneToolOutputs(messages, { protectLastN: 3 }).report.imagesStripped).toBe(1);
    const all = pruneToolOutputs(messages, { protectLastN: 3, stripMessageImages: true });
    expect(all.report.imagesStripped).toBe(2);
    expect(all.messages[0]?.parts[1]).toEqual({
      type: 'text',
      text: '[image removed to save context: https://x.test/ui.png]',
    });
  });

  it('keeps the earliest copy of a duplicate when asked', () => {
    const same = long('same');
    const messages = deepFreeze([
      user('go'),
      assistant('', call('r1', 'Read', { file_path: '/a.ts' })),
      tool(result('r1', same)),
      assistant('', call('r2', 'Read', { file_path: '/a.ts' })),
      tool(result('r2', same)),
    ]);
    const out = pruneToolOutputs(messages, { protectLastN: 5, dedupeKeep: 'earliest' });
    expect(out.messages[2]).toBe(messages[2]);
    expect(resultText(out.messages, 'r2')).toContain('earlier output of Read call r1');
  });

  it('returns the input array itself when there is nothing to prune', () => {
    const messages = deepFreeze([user('hi'), assistant('hello')]);
    const out = pruneToolOutputs(messages);
    expect(out.messages).toBe(messages);
    expect(out.report).toEqual({ deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 });
  });
});
