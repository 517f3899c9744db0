import { describe, expect, it } from 'vitest';
import { shrinkToolArguments } from '../../src/transforms/shrink-tool-arguments.js';
import { assistant, call, callArguments, deepFreeze, result, tool, user } from './support.js';

function withCall(args: object | string) {
  return deepFreeze([
    user('go'),
    assistant('', call('w', 'Write', args)),
    tool(result('w', 'ok')),
    user('next'),
  ]);
}

describe('shrinkToolArguments', () => {
  it('cuts long string leaves of old calls and keeps the arguments valid JSON', () => {
    const messages = withCall({
      file_path: '/r/big.txt',
      content: 'é'.repeat(2000),
      meta: { n: 1, ok: true },
    });
    const out = shrinkToolArguments(messages, { before: 4 });
    expect(out.shrunk).toBe(1);
    const args = JSON.parse(callArguments(out.messages, 'w'));
    expect(args.file_path).toBe('/r/big.txt');
    expect(args.content.startsWith('é'.repeat(200))).toBe(true);
    expect(args.content).toContain('…[1,800 chars truncated]');
    expect(args.meta).toEqual({ n: 1, ok: true });
  });

  it('keeps commands, paths and URLs whole unless they are huge', () => {
    const command = `cd /srv && ${'make all && '.repeat(40)}echo done`;
    const url = `https://example.com/${'a/'.repeat(150)}`;
    const messages = withCall({ command, url, note: 'n'.repeat(900) });
    const args = JSON.parse(callArguments(shrinkToolArguments(messages, { before: 4 }).messages, 'w'));
    expect(args.command).toBe(command);
    expect(args.url).toBe(url);
    expect(args.note.length).toBeLessThan(250);
    const huge = withCall({ command: 'x '.repeat(3000) });
    const cut = JSON.parse(callArguments(shrinkToolArguments(huge, { before: 4 }).messages, 'w'));
    expect(cut.command.length).toBeLessThan(1100);
  });

  it('leaves unparseable arguments, short arguments and protected messages alone', () => {
    for (const messages of [withCall(`{"content": "${'x'.repeat(900)}"`), withCall({ content: 'short' })]) {
      const out = shrinkToolArguments(messages, { before: 4 });
      expect(out.shrunk).toBe(0);
      expect(out.messages).toBe(messages);
    }
    const protectedCall = withCall({ content: 'x'.repeat(900) });
    expect(shrinkToolArguments(protectedCall, { before: 1 }).messages).toBe(protectedCall);
  });

  it('never changes numbers JSON cannot carry exactly', () => {
    const text = `{"id": 123456789012345678901, "content": "${'x'.repeat(900)}"}`;
    expect(shrinkToolArguments(withCall(text), { before: 4 }).shrunk).toBe(0);
  });

  it('keeps a __proto__ key a plain key', () => {
    const text = `{"__proto__": {"polluted": true}, "content": "${'x'.repeat(900)}"}`;
    const out = shrinkToolArguments(withCall(text), { before: 4 });
    expect(callArguments(out.messages, 'w')).toContain('{"__proto__":{"polluted":true},"content":"xxx');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('does not split a surrogate pair at the cut', () => {
    const messages = withCall({ content: `${'a'.repeat(199)}${'😀'.repeat(400)}` });
    const args = callArguments(shrinkToolArguments(messages, { before: 4 }).messages, 'w');
    expect(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(JSON.parse(args).content),
    ).toBe(false);
    expect(JSON.parse(args).content.startsWith('a'.repeat(199))).toBe(true);
  });

  it('changes nothing more when run again, even when the shrunk arguments are still long', () => {
    const messages = withCall({
      a: 'a'.repeat(1000),
      b: 'b'.repeat(1000),
      c: 'c'.repeat(1000),
      d: 'd'.repeat(1000),
    });
    const once = shrinkToolArguments(messages, { before: 4 });
    expect(callArguments(once.messages, 'w').length).toBeGreaterThan(500);
    const twice = shrinkToolArguments(once.messages, { before: 4 });
    expect(twice.shrunk).toBe(0);
    expect(twice.messages).toBe(once.messages);
  });
});
