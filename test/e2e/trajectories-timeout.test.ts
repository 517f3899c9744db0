import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shareGptLine, writeDataset } from '../batch/helpers.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

describe('condense trajectories --timeout (built binary)', () => {
  it('enforces the timeout with --workers 0 as with worker threads: late entries are kept and counted', async () => {
    const data = writeDataset(tmp.path, 'runs.jsonl', [shareGptLine(0, 60), shareGptLine(1, 60)]);
    for (const workers of ['0', '1']) {
      const out = join(tmp.path, `out-${workers}`);
      const run = await runBinary([
        'trajectories',
        data,
        '-o',
        out,
        '--target',
        '500',
        '--summary-target',
        '60',
        '--timeout',
        '0.001',
        '--workers',
        workers,
      ]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/2 failed of which 2 timed out/);
      expect(run.stderr).toContain('no result within 0.001 s');
    }
  });

  it('refuses a timeout that is not a positive number', async () => {
    const run = await runBinary(['trajectories', 'runs.jsonl', '--timeout', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--timeout must be a positive number');
  });
});
