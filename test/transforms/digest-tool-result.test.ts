import { describe, expect, it } from 'vitest';
import { digestToolResult } from '../../src/transforms/digest-tool-result.js';
import { exitStatus } from '../../src/transforms/output-facts.js';
import { toolKind } from '../../src/transforms/tool-kind.js';
import { call, image, long, result } from './support.js';

function digest(
  name: string,
  args: object | string,
  output: string,
  options: { isError?: boolean } = {},
): string {
  return digestToolResult(call('c1', name, args), result('c1', output, options));
}

describe('tool kinds are recognised by name and argument shape', () => {
  it.each([
    ['bash', { command: 'ls' }, 'shell'],
    ['Bash', { command: 'ls' }, 'shell'],
    ['terminal', { command: 'ls' }, 'shell'],
    ['execute_command', { command: 'ls' }, 'shell'],
    ['run_command', { command: 'ls' }, 'shell'],
    ['my_custom_exec', { command: 'ls' }, 'shell'],
    ['read_file', { path: 'a.ts' }, 'read'],
    ['Read', { file_path: '/a.ts' }, 'read'],
    ['mcp__filesystem__read_file', { path: '/a.ts' }, 'read'],
    ['str_replace_editor', { command: 'view', path: '/a.ts' }, 'read'],
    ['str_replace_editor', { command: 'create', path: '/a.ts', file_text: 'x' }, 'write'],
    ['str_replace_editor', { command: 'str_replace', path: '/a.ts', old_str: 'a', new_str: 'b' }, 'edit'],
    ['grep', { pattern: 'x' }, 'search'],
    ['search_files', { pattern: 'x', path: '.' }, 'search'],
    ['rg', { pattern: 'x' }, 'search'],
    ['Glob', { pattern: '**/*.ts' }, 'glob'],
    ['web_search', { query: 'x' }, 'web-search'],
    ['WebSearch', { query: 'x' }, 'web-search'],
    ['WebFetch', { url: 'https://a.b', prompt: 'x' }, 'fetch'],
    ['web_extract', { urls: ['https://a.b'] }, 'fetch'],
    ['browser_click', { ref: 'e3' }, 'fetch'],
    ['Edit', { file_path: '/a', old_string: 'a', new_string: 'b' }, 'edit'],
    ['MultiEdit', { file_path: '/a', edits: [{ old_string: 'a', new_string: 'b' }] }, 'edit'],
    ['apply_patch', { input: '*** Begin Patch' }, 'edit'],
    ['Write', { file_path: '/a', content: 'x' }, 'write'],
    ['TodoWrite', { todos: [] }, 'todo'],
    ['Task', { description: 'x', prompt: 'y' }, 'task'],
    ['Agent', { description: 'x', prompt: 'y' }, 'task'],
    ['search_direct_flight', { origin: 'JFK', destination: 'SEA' }, 'unknown'],
    ['search_books', { query: 'mystery' }, 'unknown'],
  ])('%s %j is %s', (name, args, kind) => {
    expect(toolKind(call('c', name, args))).toBe(kind);
  });
});

describe('exit statuses are parsed from common output shapes', () => {
  it.each([
    ['Exit code 2\n/bin/bash: line 1: pytest: command not found', 2],
    ['{"output": "boom", "exit_code": 1, "error": null}', 1],
    ['building...\n[The command completed with exit code 127.]', 127],
    ['Exit status 3', 3],
    ['stdout\nreturncode: 4', 4],
    ['<returncode>0</returncode>\n<exit_code>5</exit_code>', 5],
    ['process exited with code -1', -1],
    ['all good', undefined],
    ['line 1\n    assert result.returncode == 0\nline 3', undefined],
  ])('%j → %s', (output, status) => {
    expect(exitStatus(output)).toBe(status);
  });
});

describe('shell digests', () => {
  it('keep the command verbatim with exit status and line count', () => {
    const line = digest(
      'Bash',
      { command: 'npm test -- --run src/a.test.ts' },
      `${long('out')}\nExit code 1`,
    );
    expect(line).toMatch(/^\[output condensed\] Bash `npm test -- --run src\/a.test.ts` → exit 1, \d+ lines/);
  });

  it('read the exit code from Hermes-style JSON output', () => {
    const line = digest(
      'terminal',
      { command: 'make' },
      JSON.stringify({ output: long('make'), exit_code: 2 }),
    );
    expect(line).toContain('`make` → exit 2');
  });

  it('cut only very long commands, keeping their start', () => {
    const command = `python -c "${'print(1);'.repeat(60)}"`;
    const line = digest('bash', { command }, long('x'));
    expect(line).toContain(command.slice(0, 300));
    expect(line).not.toContain(command);
  });

  it('keep the first line and the error lines of a failed run verbatim', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 3, in <module>',
      '    import missing',
      "ModuleNotFoundError: No module named 'missing'",
      long('padding', 300),
    ].join('\n');
    const line = digest('execute_bash', { command: 'python /app/main.py' }, output, { isError: true });
    expect(line).toContain('failed');
    expect(line).toContain('Traceback (most recent call last):');
    expect(line).toContain("ModuleNotFoundError: No module named 'missing'");
  });

  it('treat a non-zero exit status as a failure even without the error flag', () => {
    const output = `Exit code 127\n/bin/bash: line 1: pytest: command not found\n${long('x', 300)}`;
    const line = digest('Bash', { command: 'pytest' }, output);
    expect(line).toContain('exit 127');
    expect(line).toContain('/bin/bash: line 1: pytest: command not found');
  });
});

describe('file digests', () => {
  it('name the path and the line range read', () => {
    const line = digest('Read', { file_path: '/repo/src/a.ts', offset: 10, limit: 50 }, long('code'));
    expect(line).toMatch(/Read \/repo\/src\/a\.ts lines 10-59 → \d+ lines \([\d,]+ chars\)/);
  });

  it('understand editor views with a view range', () => {
    const line = digest(
      'str_replace_editor',
      { command: 'view', path: '/w/x.py', view_range: [5, -1] },
      long('c'),
    );
    expect(line).toContain('/w/x.py from line 5');
  });

  it('do not mistake code that mentions errors for a failure', () => {
    const line = digest(
      'read_file',
      { path: 'src/err.ts' },
      `throw new TypeError('bad');\n${long('Error: x')}`,
    );
    expect(line).not.toContain('error:');
  });

  it('describe edits by path and the sizes of old and new text', () => {
    const line = digest(
      'Edit',
      { file_path: '/r/a.ts', old_string: 'a'.repeat(120), new_string: 'b'.repeat(340) },
      long('ok'),
    );
    expect(line).toContain('Edit /r/a.ts (120 → 340 chars) → done');
  });

  it('count the edits of a multi-edit', () => {
    const edits = [
      { old_string: 'aa', new_string: 'bbb' },
      { old_string: 'c', new_string: 'dd' },
    ];
    expect(digest('MultiEdit', { file_path: '/r/a.ts', edits }, long('ok'))).toContain(
      '/r/a.ts (2 edits, 3 → 5 chars)',
    );
  });

  it('list the files and line counts of a patch', () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old\n+new\n+more\n*** End Patch';
    expect(digest('apply_patch', { input: patch }, long('ok'))).toContain(
      'apply_patch src/a.ts (+2 -1 lines)',
    );
  });

  it('describe writes by path and size of the content written', () => {
    const line = digest('Write', { file_path: '/r/new.md', content: 'a\nb\nc' }, long('ok'));
    expect(line).toContain('Write /r/new.md (3 lines, 5 chars) → done');
  });
});

describe('search and web digests', () => {
  it('give pattern, path and the count the tool reported', () => {
    const output = `Found 3 files\n/r/a.ts\n/r/b.ts\n/r/c.ts\n${long('pad')}`;
    const line = digest('Grep', { pattern: 'TODO|FIXME', path: '/r', glob: '*.ts' }, output);
    expect(line).toContain("Grep 'TODO|FIXME' in /r (*.ts) → 3 files");
  });

  it('read Hermes total_count', () => {
    const output = JSON.stringify({ total_count: 42, matches: [long('m')] });
    expect(digest('search_files', { pattern: 'x', path: 'src' }, output)).toContain('42 matches');
  });

  it('name the first paths a listing found', () => {
    const output = Array.from({ length: 30 }, (_, index) => `/r/src/file${index}.ts`).join('\n');
    const line = digest('Glob', { pattern: '**/*.ts', path: '/r' }, output);
    expect(line).toContain(
      "Glob '**/*.ts' in /r → 30 paths: /r/src/file0.ts, /r/src/file1.ts, /r/src/file2.ts, …",
    );
  });

  it('keep the query and the first result links of a web search', () => {
    const output = `Results:\nhttps://example.com/a\nhttps://example.org/b\n${long('pad')}`;
    const line = digest('WebSearch', { query: 'vitest fake timers' }, output);
    expect(line).toContain("WebSearch 'vitest fake timers' → ");
    expect(line).toContain('https://example.com/a, https://example.org/b');
  });

  it('keep the URL of a fetch verbatim', () => {
    const url = 'https://docs.example.com/api/v2/pulls?state=open&sort=updated#comments';
    expect(digest('WebFetch', { url, prompt: 'summarise' }, long('page'))).toContain(`WebFetch ${url} → `);
  });

  it('list every URL of a multi-URL extract', () => {
    const line = digest('web_extract', { urls: ['https://a.example/x', 'https://b.example/y'] }, long('p'));
    expect(line).toContain('https://a.example/x, https://b.example/y');
  });
});

describe('other digests', () => {
  it('count todo items by status', () => {
    const todos = [
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'completed' },
      { content: 'c', status: 'pending' },
    ];
    expect(digest('TodoWrite', { todos }, long('ok'))).toContain(
      'TodoWrite: 3 items (2 completed, 1 pending)',
    );
  });

  it('give a sub-agent task its label and the first line of its answer', () => {
    const args = {
      description: 'Explore parser',
      prompt: 'Look at src/parser.ts and report',
      subagent_type: 'Explore',
    };
    const line = digest('Task', args, `The parser lives in src/parser.ts.\n${long('detail')}`);
    expect(line).toContain("Task (Explore) 'Explore parser' → ");
    expect(line).toContain(': The parser lives in src/parser.ts.');
  });

  it('list the salient arguments of an unknown tool', () => {
    const line = digest('get_reservation_details', { reservation_id: 'JG7FMM', verbose: true }, long('{}'));
    expect(line).toMatch(
      /^\[output condensed\] get_reservation_details reservation_id=JG7FMM verbose=true → [\d,]+ chars$/,
    );
  });

  it('mention every path and URL written in the arguments', () => {
    const args = { prompt: 'Compare src/a.ts with lib/b.py, see https://example.com/spec for details' };
    const line = digest('Task', { description: 'compare', ...args }, long('answer'));
    for (const artifact of ['src/a.ts', 'lib/b.py', 'https://example.com/spec'])
      expect(line).toContain(artifact);
  });

  it('keep a clear error line of an output that did not declare failure', () => {
    const line = digest('deploy', { env: 'prod' }, `Error: permission denied for /srv/app\n${long('trace')}`);
    expect(line).toContain('; error: Error: permission denied for /srv/app');
  });

  it('work without the call, from the tool name the result carries', () => {
    const line = digestToolResult(undefined, result('c9', long('x'), { name: 'lookup' }));
    expect(line).toMatch(/^\[output condensed\] lookup → [\d,]+ chars$/);
  });

  it('count images in the output', () => {
    const output = result('c1', long('shot'), { extra: [image()] });
    expect(digestToolResult(call('c1', 'browser_snapshot', {}), output)).toContain('1 image');
  });

  it('survive arguments that are not JSON', () => {
    expect(digest('Bash', '{"command": "ls', long('x'))).toMatch(/^\[output condensed\] Bash → /);
  });
});
