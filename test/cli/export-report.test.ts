import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wireProblems } from '../../src/codecs/provider-rules/index.js';
import { convertFixturePath } from '../integrity/fixtures.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';

describe('condense export checks and reports what it writes', () => {
  it('writes provider-valid lines and says what the sessions held that the dataset cannot', async () => {
    const directory = temporaryDirectory();
    try {
      const project = join(directory.path, 'project');
      mkdirSync(project);
      for (const name of ['claude-code-rewind.jsonl', 'claude-code-tool-errors.jsonl'])
        copyFileSync(convertFixturePath(name), join(project, name));
      for (const to of ['openai', 'anthropic'] as const) {
        const out = join(directory.path, `${to}.jsonl`);
        const run = await runInProcess(['export', project, '--to', to, '-o', out]);
        expect(run.code, run.stderr).toBe(0);
        const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
        expect(lines).toHaveLength(2);
        for (const line of lines)
          expect(wireProblems(to, JSON.parse(line), { trailingCalls: false })).toEqual([]);
        expect(run.stderr).toMatch(/source fields not in the .* shape, left behind: .*toolUseResult/);
      }
      const openai = await runInProcess(['export', project, '--to', 'openai']);
      expect(openai.stderr).toMatch(/tool error flag written as "\[tool error\]" text/);
      expect(openai.stderr).toMatch(/not carried to openai: .*reasoning signature/);
    } finally {
      directory.remove();
    }
  });
});
