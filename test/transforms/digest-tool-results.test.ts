import { describe, expect, it } from 'vitest';
import { digestToolResults } from '../../src/transforms/digest-tool-results.js';
import { assistant, call, deepFreeze, image, long, result, resultText, tool, user } from './support.js';

function session() {
  return deepFreeze([
    user('fix the build'),
    assistant('', call('b1', 'Bash', { command: 'npm run build' })),
    tool(result('b1', long('build log'))),
    assistant('', call('r1', 'Read', { file_path: '/r/a.ts' }), call('r2', 'Read', { file_path: '/r/b.ts' })),
    tool(result('r1', long('a.ts')), result('r2', 'short')),
    assistant('', call('s1', 'browser_snapshot', {})),
    tool(result('s1', long('snapshot'), { extra: [image()] })),
    assistant('', call('b2', 'Bash', { command: 'npm test' })),
    tool(result('b2', long('test log'))),
  ]);
}

describe('digestToolResults', () => {
  it('digests old outputs longer than minChars and keeps the protected tail as is', () => {
    const messages = session();
    const out = digestToolResults(messages, { before: 7 });
    expect(out.digested).toBe(3);
    expect(resultText(out.messages, 'b1')).toMatch(/^\[output condensed\] Bash `npm run build` → /);
    expect(resultText(out.messages, 'r1')).toMatch(/^\[output condensed\] Read \/r\/a\.ts → /);
    expect(resultText(out.messages, 'r2')).toBe('short');
    expect(out.messages.slice(7)).toEqual(messages.slice(7));
    expect(out.messages[7]).toBe(messages[7]);
    expect(out.messages[8]).toBe(messages[8]);
  });

  it('keeps the unchanged results of a parallel group as the same objects', () => {
    const messages = session();
    const out = digestToolResults(messages, { before: 7 });
    expect(out.messages[4]).not.toBe(messages[4]);
    expect(out.messages[4]?.parts[1]).toBe(messages[4]?.parts[1]);
    expect(out.messages[3]).toBe(messages[3]);
  });

  it('leaves images after the digest for the image pass', () => {
    const out = digestToolResults(session(), { before: 7 });
    const part = out.messages[6]?.parts[0];
    expect(part?.type === 'tool-result' && part.content.map((content) => content.type)).toEqual([
      'text',
      'image',
    ]);
  });

  it('changes nothing more when run again', () => {
    const once = digestToolResults(session(), { before: 9 });
    const twice = digestToolResults(once.messages, { before: 9 });
    expect(twice.digested).toBe(0);
    expect(twice.messages).toBe(once.messages);
  });

  it('pairs results with their call by position when ids repeat', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('same', 'Read', { file_path: '/first.ts' })),
      tool(result('same', long('one'))),
      assistant('', call('same', 'Read', { file_path: '/second.ts' })),
      tool(result('same', long('two'))),
    ]);
    const out = digestToolResults(messages, { before: 5 });
    expect(out.messages[2]?.parts[0]).toMatchObject({
      content: [{ text: expect.stringContaining('/first.ts') }],
    });
    expect(out.messages[4]?.parts[0]).toMatchObject({
      content: [{ text: expect.stringContaining('/second.ts') }],
    });
  });
});
