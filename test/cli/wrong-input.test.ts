import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionBuilder } from '../session/generate-session.js';
import { type CliRun, ROOT, runInProcess, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');
const dir = temporaryDirectory();
afterAll(() => dir.remove());

const empty = join(dir.path, 'empty.json');
const blank = join(dir.path, 'blank.jsonl');
const binary = join(dir.path, 'image.bin');
const folder = join(dir.path, 'folder');
const notTranscript = join(dir.path, 'settings.json');
const session = join(dir.path, 'session.jsonl');
writeFileSync(empty, '');
writeFileSync(blank, '\n  \n\n');
writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]));
mkdirSync(folder);
writeFileSync(notTranscript, '{"theme": "dark", "fontSize": 14}\n');
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

/** Commands that read one transcript file, with the arguments around it. */
const TRANSCRIPT_COMMANDS: readonly [string, (file: string) => string[]][] = [
  ['inspect', (file) => ['inspect', file]],
  ['convert', (file) => ['convert', file, '--to', 'anthropic']],
  ['compact', (file) => ['compact', file, '--force']],
  ['redact', (file) => ['redact', file]],
  ['report', (file) => ['report', file, '-o', '-']],
  ['restore', (file) => ['restore', file, '--from', EXAMPLE]],
];

describe('every command refuses input it cannot use, clearly and with a non-zero exit (in process)', () => {
  for (const [name, args] of TRANSCRIPT_COMMANDS) {
    it(`${name}: empty, blank, binary, directory, non-transcript and empty standard input`, async () => {
      expectClearFailure(await runInProcess(args(empty)), 'EMPTY_INPUT', empty);
      expectClearFailure(await runInProcess(args(blank)), 'EMPTY_INPUT', blank);
      expectClearFailure(await runInProcess(args(binary)), 'INVALID_INPUT', binary);
      expectClearFailure(await runInProcess(args(folder)), 'IO_FAILED', folder);
      expectClearFailure(await runInProcess(args(notTranscript)), 'UNKNOWN_FORMAT', notTranscript);
      const stdin = await runInProcess(args('-'), { stdin: '' });
      expectClearFailure(stdin, 'EMPTY_INPUT');
      expect(stdin.stderr).toContain('standard input is empty');
    });
  }

  for (const [name, args] of [
    ['replay', (file: string) => ['replay', file]],
    ['export', (file: string) => ['export', file, '--to', 'openai']],
  ] as const) {
    it(`${name}: empty, binary, a transcript file, a directory without sessions`, async () => {
      expectClearFailure(await runInProcess(args(empty)), 'EMPTY_INPUT', empty);
      expectClearFailure(await runInProcess(args(binary)), 'NOT_A_SESSION', binary);
      const transcript = await runInProcess(args(EXAMPLE));
      expectClearFailure(transcript, 'NOT_A_SESSION', EXAMPLE);
      expect(transcript.stderr).toContain('it is a transcript file (openai format)');
      expect(transcript.stdout).toBe('');
      expectClearFailure(await runInProcess(args(notTranscript)), 'NOT_A_SESSION', notTranscript);
    });
  }

  it('replay names a directory as one and points to condense sessions', async () => {
    const run = await runInProcess(['replay', folder]);
    expectClearFailure(run, 'IO_FAILED', folder);
    expect(run.stderr).toContain(`condense sessions ${folder}`);
  });

  it('export of a directory without sessions writes nothing', async () => {
    const out = join(dir.path, 'nothing.jsonl');
    const none = await runInProcess(['export', folder, '--to', 'openai', '-o', out]);
    expectClearFailure(none, 'EMPTY_INPUT', folder);
    const onlyOthers = join(dir.path, 'others');
    mkdirSync(onlyOthers);
    writeFileSync(join(onlyOthers, 'a.jsonl'), '{"messages": []}\n');
    writeFileSync(join(onlyOthers, 'b.jsonl'), '');
    const others = await runInProcess(['export', onlyOthers, '--to', 'openai', '-o', out]);
    expectClearFailure(others, 'NOT_A_SESSION', onlyOthers);
    expect(others.stderr).toContain(`skipped ${join(onlyOthers, 'a.jsonl')}: not a session log`);
    expect(existsSync(out)).toBe(false);
  });

  it('sessions: an empty directory, a directory of non-sessions, a file', async () => {
    expectClearFailure(await runInProcess(['sessions', folder]), 'EMPTY_INPUT', folder);
    const others = join(dir.path, 'datasets');
    mkdirSync(others);
    writeFileSync(join(others, 'runs.jsonl'), '{"conversations": []}\n');
    const run = await runInProcess(['sessions', others, '--json']);
    expectClearFailure(run, 'NOT_A_SESSION', others);
    expect(run.stdout).toBe('');
    expectClearFailure(await runInProcess(['sessions', EXAMPLE]), 'IO_FAILED', EXAMPLE);
  });

  it('trajectories: empty, blank, binary, a session file; nothing is reported as written', async () => {
    for (const [file, code] of [
      [empty, 'EMPTY_INPUT'],
      [blank, 'EMPTY_INPUT'],
      [binary, 'INVALID_INPUT'],
      [session, 'INVALID_INPUT'],
    ] as const) {
      const out = join(dir.path, `out-${readdirSync(dir.path).length}`);
      const run = await runInProcess(['trajectories', file, '-o', out, '--workers', '0']);
      expectClearFailure(run, code, file);
      expect(run.stderr).toContain('wrote 0 file(s)');
    }
    expectClearFailure(await runInProcess(['trajectories', folder]), 'EMPTY_INPUT', folder);
  });

  it('configuration files and option values: empty, binary, a directory, a non-number', async () => {
    expectClearFailure(
      await runInProcess(['compact', EXAMPLE, '--engine', 'rules', '--config', empty, '--force']),
      'EMPTY_INPUT',
      empty,
    );
    expectClearFailure(
      await runInProcess(['compact', EXAMPLE, '--engine', 'rules', '--config', binary, '--force']),
      'INVALID_INPUT',
      binary,
    );
    expectClearFailure(
      await runInProcess(['trajectories', EXAMPLE, '--config', blank, '--dry-run']),
      'EMPTY_INPUT',
      blank,
    );
    expectClearFailure(
      await runInProcess(['trajectories', EXAMPLE, '--config', folder, '--dry-run']),
      'IO_FAILED',
      folder,
    );
    const top = await runInProcess(['inspect', EXAMPLE, '--top', 'abc']);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('--top must be a non-negative integer, got "abc"');
  });
});
