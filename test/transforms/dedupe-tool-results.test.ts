import { describe, expect, it } from 'vitest';
import { dedupeToolResults } from '../../src/transforms/dedupe-tool-results.js';
import { assistant, call, deepFreeze, image, long, result, resultText, tool, user } from './support.js';

const SAME = long('same file content');

function readTwice() {
  return deepFreeze([
    user('read it twice'),
    assistant('', call('r1', 'Read', { file_path: '/a.ts' })),
    tool(result('r1', SAME)),
    assistant('again', call('r2', 'Read', { file_path: '/a.ts' })),
    tool(result('r2', SAME)),
    assistant('done'),
  ]);
}

describe('dedupeToolResults', () => {
  it('replaces older copies by a reference naming the newest copy (Hermes)', () => {
    const messages = readTwice();
    const out = dedupeToolResults(messages);
    expect(out.deduplicated).toBe(1);
    expect(resultText(out.messages, 'r1')).toMatch(
      /^\[duplicate output\] identical to the later output of Read call r2/,
    );
    expect(resultText(out.messages, 'r2')).toBe(SAME);
    expect(out.references).toEqual([
      { index: 2, partIndex: 0, callId: 'r1', keptIndex: 4, keptCallId: 'r2', toolName: 'Read' },
    ]);
  });

  it('keeps the earliest copy when asked, so the cached prefix stays byte-identical', () => {
    const messages = readTwice();
    const out = dedupeToolResults(messages, { keep: 'earliest' });
    expect(out.messages.slice(0, 4)).toEqual(messages.slice(0, 4));
    for (let index = 0; index < 4; index++) expect(out.messages[index]).toBe(messages[index]);
    expect(resultText(out.messages, 'r2')).toContain('identical to the earlier output of Read call r1');
  });

  it('returns untouched messages as the same objects, and the same array when nothing repeats', () => {
    const messages = readTwice();
    const out = dedupeToolResults(messages);
    for (const index of [0, 1, 3, 4, 5]) expect(out.messages[index]).toBe(messages[index]);
    const unique = deepFreeze([user('x'), assistant('', call('a', 'Read')), tool(result('a', long('only')))]);
    expect(dedupeToolResults(unique).messages).toBe(unique);
  });

  it('leaves short outputs, errors vs successes, and outputs with images apart', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('a', 'x'), call('b', 'x'), call('c', 'x'), call('d', 'x'), call('e', 'x')),
      tool(result('a', 'short')),
      tool(result('b', 'short')),
      tool(result('c', SAME, { isError: true })),
      tool(result('d', SAME)),
      tool(result('e', SAME, { extra: [image()] })),
    ]);
    expect(dedupeToolResults(messages).deduplicated).toBe(0);
  });

  it('never rewrites messages from protectFrom on, while they can still be the kept copy', () => {
    const messages = readTwice();
    expect(dedupeToolResults(messages, { protectFrom: 2 }).deduplicated).toBe(0);
    const kept = dedupeToolResults(messages, { protectFrom: 3 });
    expect(kept.deduplicated).toBe(1);
    expect(kept.messages[4]).toBe(messages[4]);
  });

  it('handles identical outputs of parallel calls in one message', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('p1', 'Bash', { command: 'cat a' }), call('p2', 'Bash', { command: 'cat a' })),
      tool(result('p1', SAME), result('p2', SAME)),
    ]);
    const out = dedupeToolResults(messages);
    expect(resultText(out.messages, 'p1')).toContain('later output of Bash call p2');
    expect(out.messages[2]?.parts[1]).toBe(messages[2]?.parts[1]);
  });

  it('does not treat its own references as duplicates on a second pass', () => {
    const once = dedupeToolResults(readTwice());
    const twice = dedupeToolResults(once.messages);
    expect(twice.deduplicated).toBe(0);
    expect(twice.messages).toBe(once.messages);
  });
});
