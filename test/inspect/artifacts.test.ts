import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findErrorLines, findPaths, findUrls, isPlausiblePath } from '../../src/inspect/artifact-patterns.js';
import {
  allArtifacts,
  artifactCoverage,
  extractArtifacts,
  resultErrorLines,
  searchableText,
} from '../../src/inspect/artifacts.js';
import type { Message } from '../../src/model/message.js';
import type { Part, ToolResultPart } from '../../src/model/part.js';
import { assistantMessage, systemMessage, toolCall, toolResult, userMessage } from '../../src/testing.js';
import { messages as arbitraryMessages } from '../summarizer/generators.js';

describe('path detection', () => {
  it.each([
    'src/app/main.ts',
    '/etc/nginx/nginx.conf',
    './run.sh',
    '../lib/util.js',
    '~/.bashrc',
    'README/notes.md',
    'src/marshmallow/',
    'lib/spotter_web/live',
    'node_modules/@types/node/index.d.ts',
    '/foo.txt',
  ])('accepts %s', (path) => {
    expect(isPlausiblePath(path)).toBe(true);
  });

  it.each([
    'and/or',
    'application/json',
    'origin/main',
    '12/05/2024',
    '1/2',
    '/tmp',
    '/compact',
    'Glob/Grep/Read',
    'merge/version/push',
    '//comment',
    'a b/c.txt',
  ])('rejects %s', (token) => {
    expect(isPlausiblePath(token)).toBe(false);
  });

  it('finds paths in text without the paths inside URLs or the position suffixes', () => {
    const text =
      'Edit src/a.ts:12:5 and see https://host.io/docs/page.html, then `/usr/bin/env` (also ./x.sh).';
    expect(findPaths(text)).toEqual(['src/a.ts', '/usr/bin/env', './x.sh']);
    expect(findPaths('</div> <span>*/x/y.js')).toEqual([]);
    expect(findPaths('path/file.py-227-    context line')).toEqual(['path/file.py']);
    expect(findPaths('C:\\Users\\dev\\app.js here')).toEqual(['C:\\Users\\dev\\app.js']);
  });
});

describe('URL detection', () => {
  it('strips trailing punctuation and caps the length', () => {
    expect(findUrls('see https://example.com/a_(b). and (http://x.io/y), file:///tmp/a.txt')).toEqual([
      'https://example.com/a_(b',
      'http://x.io/y',
      'file:///tmp/a.txt',
    ]);
    const long = `https://example.com/${'a'.repeat(400)}`;
    expect(findUrls(long)[0]).toHaveLength(200);
  });
});

describe('error lines', () => {
  it('counts every line that names an error, as the quality bar defines it', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "app.py", line 3, in <module>',
      'ValueError: invalid literal',
      'npm ERR! code ELIFECYCLE',
      'fatal: not a git repository',
      'Found 0 errors.',
      '   12→    raise ValueError("x")',
      'console.error(err)',
      'permission denied',
      'config.json not found',
      'Error: gift card balance is not enough',
      'fatal: not a git repository',
    ].join('\n');
    expect(findErrorLines(output)).toEqual([
      'Traceback (most recent call last):',
      'ValueError: invalid literal',
      'npm ERR! code ELIFECYCLE',
      'fatal: not a git repository',
      'Found 0 errors.',
      '12→    raise ValueError("x")',
      'console.error(err)',
      'permission denied',
      'config.json not found',
      'Error: gift card balance is not enough',
    ]);
  });

  it('keeps every error line of a long log, each once, unless asked for its ends only', () => {
    const log = Array.from({ length: 30 }, (_unused, index) => `FAILED test_${index}`).join('\n');
    expect(findErrorLines(log)).toHaveLength(30);
    expect(findErrorLines(`${log}\n${log}`)).toHaveLength(30);
    const ends = findErrorLines(log, 8, 4);
    expect(ends).toHaveLength(12);
    expect(ends[0]).toBe('FAILED test_0');
    expect(ends[ends.length - 1]).toBe('FAILED test_29');
  });
});

describe('extractArtifacts', () => {
  const bash = toolCall('Bash', { command: 'npm test -- --grep "parser"\necho done' }, 'b1');
  const edit = toolCall(
    'Edit',
    { file_path: 'README.md', old_string: 'import x from "./a/b.js"', new_string: 'y' },
    'e1',
  );
  const editor = toolCall('str_replace_editor', { command: 'view', path: '/repo/setup.py' }, 'v1');
  const shell = toolCall('shell', { command: ['bash', '-lc', 'cargo build --release'] }, 's1');
  const turns: Message[] = [
    systemMessage('System prompt mentions /etc/secret/config.yaml'),
    userMessage('Fix https://github.com/acme/app/issues/7 please. Error: it crashes'),
    assistantMessage('Looking at src/parser.ts.', bash, edit, editor, shell),
    toolResult(bash, 'FAIL test/parser.test.ts\nAssertionError: expected 1', { isError: true }),
    toolResult(edit, 'updated'),
    toolResult(editor, '[File: /repo/setup.py (10 lines total)]'),
    toolResult(shell, 'Compiling app v0.1.0 (/work/app)', { name: 'shell' }),
    { role: 'assistant', parts: [{ type: 'reasoning', text: 'thinking about /hidden/path.ts' }] },
  ];
  const artifacts = extractArtifacts(turns);

  it('collects each kind from arguments, results and text', () => {
    expect([...artifacts.commands]).toEqual(['npm test -- --grep "parser"', 'cargo build --release']);
    expect([...artifacts.toolNames]).toEqual(['Bash', 'Edit', 'str_replace_editor', 'shell']);
    expect([...artifacts.urls]).toEqual(['https://github.com/acme/app/issues/7']);
    expect([...artifacts.paths]).toEqual(
      expect.arrayContaining([
        'src/parser.ts',
        'README.md',
        '/repo/setup.py',
        'test/parser.test.ts',
        '/work/app',
      ]),
    );
    expect([...artifacts.errorLines]).toEqual([
      'Fix https://github.com/acme/app/issues/7 please. Error: it crashes',
      'FAIL test/parser.test.ts',
      'AssertionError: expected 1',
    ]);
  });

  it('ignores system prompts, reasoning, file contents being written and editor verbs', () => {
    const all = allArtifacts(artifacts);
    expect(all).not.toContain('/etc/secret/config.yaml');
    expect(all).not.toContain('/hidden/path.ts');
    expect(all).not.toContain('./a/b.js');
    expect(all).not.toContain('view');
  });

  it('measures coverage per kind', () => {
    const coverage = artifactCoverage(artifacts, 'npm test -- --grep "parser" Bash README.md');
    expect(coverage.byKind.commands).toEqual({ total: 2, present: 1, missing: ['cargo build --release'] });
    expect(coverage.byKind.toolNames.present).toBe(1);
    expect(coverage.ratio).toBeCloseTo(coverage.present / coverage.total);
    expect(artifactCoverage(extractArtifacts([]), '').ratio).toBe(1);
  });

  it('only ever extracts strings that occur in the searchable text of the same messages', () => {
    fc.assert(
      fc.property(arbitraryMessages, (turns) => {
        const text = searchableText(turns);
        expect(artifactCoverage(extractArtifacts(turns), text).ratio).toBe(1);
      }),
      { numRuns: 400 },
    );
  });
});

describe('error lines of a tool result', () => {
  const line = fc.oneof(
    fc.constantFrom(
      'Error: cannot find module',
      'TypeError: x is undefined',
      '  npm ERR! code 1',
      'all good',
      '0 failed, 3 passed',
      'EACCES: permission denied',
      '',
      '   ',
      'Traceback (most recent call last):',
    ),
    fc.string({ maxLength: 30 }),
  );
  const text = fc
    .tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
    .map(([lines, separator]) => lines.join(separator));
  const content = fc.oneof(
    { weight: 4, arbitrary: text.map((value): Part => ({ type: 'text', text: value })) },
    {
      weight: 1,
      arbitrary: fc.constant<Part>({
        type: 'image',
        source: { kind: 'base64', data: 'AAAA', mediaType: 'image/png' },
      }),
    },
  );

  it('are what a scan of its text contents joined by line breaks finds, whether or not its artifacts were read first', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 4 }), fc.boolean(), (contents, artifactsFirst) => {
        const result = { type: 'tool-result', callId: 'c1', content: contents } as ToolResultPart;
        const joined = contents
          .map((part) => (part.type === 'text' ? part.text : ''))
          .join('\n')
          .trim();
        if (artifactsFirst) extractArtifacts([{ role: 'tool', parts: [result] }]);
        const lines = resultErrorLines(result);
        expect(lines).toEqual(findErrorLines(joined));
        // The caller may change its copy without changing what the next caller gets.
        lines.push('changed');
        expect(resultErrorLines(result)).toEqual(findErrorLines(joined));
      }),
      { numRuns: 400 },
    );
  });
});
