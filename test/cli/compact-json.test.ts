import { describe, expect, it } from 'vitest';
import { convertFixturePath } from '../integrity/fixtures.js';
import { runInProcess } from '../support/cli.js';

describe('condense compact --json', () => {
  it("carries the transcript in the input's wire format, never the internal model", async () => {
    const run = await runInProcess([
      'compact',
      convertFixturePath('tau-bench-airline-run.json'),
      '--force',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as {
      format: string;
      report: object;
      transcript: Record<string, unknown>;
    };
    expect(body.format).toBe('openai');
    expect(Array.isArray(body.transcript['traj'])).toBe(true);
    expect(JSON.stringify(body.transcript)).not.toMatch(/"parts":/);
  });

  it('prints a Claude Code session as its records', async () => {
    const run = await runInProcess([
      'compact',
      convertFixturePath('claude-code-rewind.jsonl'),
      '--force',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as { format: string; transcript: { type?: string }[] };
    expect(body.format).toBe('claude-code');
    expect(Array.isArray(body.transcript)).toBe(true);
    expect(body.transcript.some((record) => record.type === 'user')).toBe(true);
  });
});
