import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { wireProblems } from '../../src/codecs/provider-rules/index.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { convertFixturePath } from '../integrity/fixtures.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';

const TRAJ = convertFixturePath('swe-agent-function-calling.traj');
const TAU = convertFixturePath('tau-bench-airline-run.json');
const ERRORS = convertFixturePath('claude-code-tool-errors.jsonl');
const REWIND = convertFixturePath('claude-code-rewind.jsonl');

describe('condense convert writes the target API shape and reports what it could not carry', () => {
  it('turns a SWE-agent trajectory into one valid {messages} and names the keys left behind', async () => {
    const run = await runInProcess(['convert', TRAJ, '--to', 'openai']);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['messages']);
    expect(wireProblems('openai', body)).toEqual([]);
    expect(run.stderr).toMatch(/source fields not in the openai shape, left behind: .*message\.agent \(12\)/);
  });

  it('keeps the trajectory in its own dialect only when asked, and only within its format', async () => {
    const run = await runInProcess(['convert', TRAJ, '--to', 'openai', '--keep-dialect']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(TRAJ, 'utf8')));
    const across = await runInProcess(['convert', TRAJ, '--to', 'anthropic', '--keep-dialect']);
    expect(across.code).toBe(2);
    expect(across.stderr).toMatch(/--keep-dialect keeps the input's own format/);
  });

  it('marks failed Claude Code tool calls for OpenAI and says how many', async () => {
    const run = await runInProcess(['convert', ERRORS, '--to', 'openai']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.match(/\[tool error\] /g)).toHaveLength(6);
    expect(run.stderr).toMatch(
      /carried to openai in another form: .*6 × tool error flag written as "\[tool error\]" text/,
    );
  });

  it('reports losses in --json, with the output when there is no -o, and fails with --strict', async () => {
    const run = await runInProcess(['convert', REWIND, '--to', 'openai', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      from: string;
      to: string;
      converted: number;
      losses: { kind: string; count: number }[];
      output: unknown[];
    };
    expect(report).toMatchObject({ from: 'claude-code', to: 'openai', converted: 1 });
    expect(report.losses).toContainEqual(expect.objectContaining({ kind: 'reasoning-signature' }));
    expect(report.output).toHaveLength(1);
    const strict = await runInProcess(['convert', REWIND, '--to', 'openai', '--strict']);
    expect(strict.code).toBe(1);
  });

  it('writes many transcripts as JSONL with valid, unique Anthropic tool ids', async () => {
    const directory = temporaryDirectory();
    try {
      const twice = join(directory.path, 'twice.json');
      const runs = JSON.parse(readFileSync(TAU, 'utf8')) as unknown[];
      writeFileSync(twice, JSON.stringify([...runs, ...runs]));
      const run = await runInProcess(['convert', twice, '--to', 'anthropic']);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(wireProblems('anthropic', JSON.parse(line))).toEqual([]);
      expect(run.stderr).toMatch(/2 × tool call id rewritten/);
    } finally {
      directory.remove();
    }
  });

  it('writes a Claude Code session without invented timestamps, the system prompt as a system record', async () => {
    const run = await runInProcess(['convert', TRAJ, '--to', 'claude-code']);
    expect(run.code, run.stderr).toBe(0);
    const records = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ type: 'system', subtype: 'condense_system_prompt' });
    expect(records.some((record) => 'timestamp' in record)).toBe(false);
    expect(run.stderr).toMatch(/1 × system prompt the model is not sent/);
    const [transcript] = documentTranscripts(decodeDocument(run.stdout));
    expect(transcript?.messages.some((message) => message.role === 'system')).toBe(false);
  });

  it('fails, writing nothing, when no transcript has a message', async () => {
    const directory = temporaryDirectory();
    try {
      const file = join(directory.path, 'titles.jsonl');
      writeFileSync(file, `${JSON.stringify({ type: 'summary', summary: 'A title', leafUuid: 'x' })}\n`);
      const out = join(directory.path, 'out.json');
      const run = await runInProcess(['convert', file, '--to', 'openai', '-o', out]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/nothing to convert/);
      expect(() => readFileSync(out)).toThrow();
    } finally {
      directory.remove();
    }
  });
});
