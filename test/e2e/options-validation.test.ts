import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shareGptLine, writeDataset } from '../batch/helpers.js';
import { ROOT, runBinary, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');

let blocker: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (blocker === undefined ? resolve(undefined) : blocker.close(resolve)));
  blocker = undefined;
});

describe('options that would change the outcome unseen are refused or reported', () => {
  it('--tokenizer with a name that is no encoding, OpenAI model or file fails (exit 2) instead of guessing', async () => {
    for (const args of [
      ['inspect', EXAMPLE, '--tokenizer', 'nonsense'],
      ['compact', EXAMPLE, '--force', '--tokenizer', 'claude-3-5-sonnet'],
    ]) {
      const run = await runBinary(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/condense: error INVALID_OPTIONS: --tokenizer ".+" is not an encoding/);
      expect(run.stdout).toBe('');
    }
    const dir = temporaryDirectory();
    try {
      const data = writeDataset(dir.path, 'runs.jsonl', [shareGptLine(0)]);
      const run = await runBinary(['trajectories', data, '--tokenizer', 'nonsense', '--dry-run']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('INVALID_OPTIONS');
    } finally {
      dir.remove();
    }
    const known = await runBinary(['inspect', EXAMPLE, '--tokenizer', 'gpt-4o', '--json']);
    expect(known.code, known.stderr).toBe(0);
  });

  it('a --threshold below the floor is reported on stderr and in --json, not silently raised', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--threshold', '0.1', '--force', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /condense: note: --threshold 0\.1 was raised to 0\.75 \(96,000 of 128,000 tokens/,
    );
    expect(JSON.parse(run.stdout).notes).toEqual([expect.stringContaining('--threshold 0.1 was raised')]);
    const honoured = await runBinary(['compact', EXAMPLE, '--threshold', '0.9', '--force', '--json']);
    expect(honoured.stderr).not.toContain('note:');
    expect(JSON.parse(honoured.stdout).notes).toBeUndefined();
  });

  it('proxy on a port in use fails with LISTEN_FAILED and what to do, without a stack trace', async () => {
    const server = createServer();
    blocker = server;
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    const run = await runBinary(['proxy', '--upstream', 'http://127.0.0.1:9/v1', '--port', String(port)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `condense: error LISTEN_FAILED: port ${port} on 127.0.0.1 is already in use`,
    );
    expect(run.stderr).toContain('--port 0 picks a free one');
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
