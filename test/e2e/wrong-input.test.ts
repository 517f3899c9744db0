import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionBuilder } from '../session/generate-session.js';
import { type CliRun, ROOT, runBinary, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');
const dir = temporaryDirectory();
afterAll(() => dir.remove());

const empty = join(dir.path, 'empty.json');
const binary = join(dir.path, 'image.bin');
const folder = join(dir.path, 'folder');
const session = join(dir.path, 'session.jsonl');
writeFileSync(empty, '');
writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]));
mkdirSync(folder);
const builder = new SessionBuilder(71);
builder.turn(null, { small: true });
writeFileSync(session, builder.jsonl());

/** A failure the user can act on: non-zero exit, a typed code, the place, and no stack trace. */
function expectClearFailure(run: CliRun, code: string, where?: string): void {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.stderr).toContain(`condense: error ${code}: `);
  if (where !== undefined) expect(run.stderr).toContain(where);
  expect(run.stderr).not.toContain('internal error');
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('the built binary refuses input it cannot use (the full matrix runs in process: test/cli)', () => {
  it('a transcript command: empty file, binary file, directory, empty standard input', async () => {
    expectClearFailure(await runBinary(['inspect', empty]), 'EMPTY_INPUT', empty);
    expectClearFailure(await runBinary(['compact', binary]), 'INVALID_INPUT', binary);
    expectClearFailure(await runBinary(['convert', folder, '--to', 'openai']), 'IO_FAILED', folder);
    const stdin = await runBinary(['redact', '-'], { input: '' });
    expectClearFailure(stdin, 'EMPTY_INPUT');
    expect(stdin.stderr).toContain('standard input is empty');
  });

  it('replay and export of a file that is not a session fail and print nothing', async () => {
    const replay = await runBinary(['replay', EXAMPLE]);
    expectClearFailure(replay, 'NOT_A_SESSION', EXAMPLE);
    expect(replay.stderr).toContain('it is a transcript file (openai format)');
    expect(replay.stdout).toBe('');
    const out = join(dir.path, 'nothing.jsonl');
    const exported = await runBinary(['export', binary, '--to', 'openai', '-o', out]);
    expectClearFailure(exported, 'NOT_A_SESSION', binary);
    expect(existsSync(out)).toBe(false);
    expectClearFailure(await runBinary(['export', empty, '--to', 'sharegpt']), 'EMPTY_INPUT', empty);
  });

  it('sessions of an empty directory, and trajectories of an empty file or a session file', async () => {
    expectClearFailure(await runBinary(['sessions', folder]), 'EMPTY_INPUT', folder);
    const out = join(dir.path, 'compressed');
    const emptyRun = await runBinary(['trajectories', empty, '-o', out, '--workers', '0']);
    expectClearFailure(emptyRun, 'EMPTY_INPUT', empty);
    expect(emptyRun.stderr).toContain('wrote 0 file(s)');
    expectClearFailure(
      await runBinary(['trajectories', session, '-o', out, '--workers', '0']),
      'INVALID_INPUT',
      session,
    );
  });
});
