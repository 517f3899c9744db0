import { describe, expect, it } from 'vitest';
import { salientArguments } from '../../src/transforms/salient-arguments.js';
import { call } from './support.js';

function salient(args: object | string) {
  return salientArguments(call('c', 'tool', args)).map(({ key, kind, value }) => `${kind}:${key}=${value}`);
}

describe('salientArguments', () => {
  it('lists commands, paths and URLs first, verbatim, then queries, ids and other values', () => {
    expect(
      salient({
        verbose: true,
        user_id: 'u_42',
        query: 'find me',
        url: 'https://x.test/a?b=1',
        path: 'src/a.ts',
        command: 'ls -la',
      }),
    ).toEqual([
      'command:command=ls -la',
      'path:path=src/a.ts',
      'url:url=https://x.test/a?b=1',
      'query:query=find me',
      'id:user_id=u_42',
      'value:verbose=true',
    ]);
  });

  it('recognises paths and URLs by their shape under any key', () => {
    expect(salient({ target: './build/out.js', source: 'https://cdn.test/lib.js', note: 'and/or' })).toEqual([
      'path:target=./build/out.js',
      'url:source=https://cdn.test/lib.js',
      'value:note=and/or',
    ]);
  });

  it('finds locations inside nested objects and arrays, with their key path', () => {
    expect(salient({ urls: ['https://a.test', 'https://b.test'], edits: [{ file_path: '/x' }] })).toEqual([
      'url:urls[0]=https://a.test',
      'url:urls[1]=https://b.test',
    ]);
    expect(salient({ ops: [{ file_path: '/r/a.ts', flight: 'HAT028' }] })).toEqual([
      'path:ops[0].file_path=/r/a.ts',
    ]);
  });

  it('skips file content being written', () => {
    expect(salient({ file_path: '/a.md', content: '# title\n/etc/passwd', new_string: 'x' })).toEqual([
      'path:file_path=/a.md',
    ]);
  });

  it('keeps the start of a long command and puts other long values on one cut line', () => {
    const [command] = salientArguments(call('c', 'bash', { command: `echo ${'a'.repeat(400)}` }));
    expect(command?.value.startsWith('echo aaa')).toBe(true);
    expect(command?.truncated).toBe(true);
    const [query] = salientArguments(call('c', 'search', { query: `line one\nline two ${'b'.repeat(300)}` }));
    expect(query?.value.startsWith('line one line two')).toBe(true);
    expect(query?.value.length).toBeLessThanOrEqual(201);
  });

  it('never drops commands, paths or URLs for the other-value limit', () => {
    const args = { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6', file: '/x/y.ts', link: 'https://z.test' };
    const found = salientArguments(call('c', 't', args), { maxOther: 2 });
    expect(found.map((argument) => argument.kind)).toEqual(['path', 'url', 'value', 'value']);
  });

  it('gives nothing for arguments that are not a JSON object', () => {
    expect(salient('not json')).toEqual([]);
    expect(salient('[1, 2]')).toEqual([]);
  });
});
