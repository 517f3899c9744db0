import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/cli.js';
import { corpusFiles } from '../support/corpus.js';

const FILES = [
  ...corpusFiles('anthropic'),
  ...corpusFiles('claude-code'),
  ...corpusFiles('openai'),
  ...corpusFiles('sharegpt'),
];

describe('condense inspect', () => {
  it.each(FILES.map((file) => [file.slice(file.lastIndexOf('/') + 1), file]))(
    'reports %s as JSON',
    async (_name, file) => {
      const run = await runInProcess(['inspect', file, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        format: string;
        messages: { total: number; byRole: Record<string, number> };
        tokens: { total: number }[];
        heaviest: unknown[];
      };
      expect(report.format).toMatch(/^(openai|anthropic|sharegpt|ai-sdk|claude-code)$/);
      expect(Object.values(report.messages.byRole).reduce((sum, count) => sum + count, 0)).toBe(
        report.messages.total,
      );
      expect(report.tokens[0]?.total ?? 0).toBeGreaterThanOrEqual(0);
      expect(report.heaviest.length).toBeLessThanOrEqual(10);
    },
  );

  it('shows roles, tools, tokens, heaviest messages and problems in the readable view', async () => {
    const run = await runInProcess([
      'inspect',
      'examples/coding-agent-session.openai.json',
      '--tokenizer',
      'o200k_base',
    ]);
    expect(run.code).toBe(0);
    for (const heading of [
      'messages: 89',
      'tool calls: 44',
      'tokens (o200k_base)',
      'tokens (rough, estimate)',
      'heaviest messages',
      'problems: none',
    ]) {
      expect(run.stdout).toContain(heading);
    }
  });

  it('reads standard input with -', async () => {
    const run = await runInProcess(['inspect', '-', '--json'], {
      stdin: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).messages.total).toBe(1);
  });

  it('exits 1 naming the file and line when no line is JSON', async () => {
    const run = await runInProcess(['inspect', '-'], { stdin: 'not json\nstill not\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/<stdin>:1: /);
  });

  it('exits 2 on an unknown format name', async () => {
    const run = await runInProcess([
      'inspect',
      'examples/coding-agent-session.openai.json',
      '--format',
      'yaml',
    ]);
    expect(run.code).toBe(2);
  });
});
