import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { loadSessionFile } from '../../src/session/load-session-file.js';
import { replayJsonPayload } from '../../src/session/replay-json.js';
import { SessionBuilder } from '../session/generate-session.js';
import { temporaryDirectory } from '../support/cli.js';

/** Runs `condense` in-process with a paced standard output whose reader takes each write a tick later. */
async function runPaced(args: readonly string[], cwd: string) {
  const writes: string[] = [];
  let pending = 0;
  let mostPending = 0;
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => writes.push(text),
    stdoutPaced: async (text) => {
      pending++;
      mostPending = Math.max(mostPending, pending);
      writes.push(text);
      await new Promise((done) => setTimeout(done, 1));
      pending--;
    },
    stderr: (text) => (stderr += text),
    env: {},
    cwd,
    stderrIsTTY: false,
    columns: 120,
    readStdin: async () => '',
  });
  return { code, writes, mostPending, stderr };
}

describe('condense replay --json', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());
  const builder = new SessionBuilder(71);
  let tip = builder.turn(null, { outputScale: 0.3 });
  for (let turn = 0; turn < 30; turn++) tip = builder.turn(tip, { outputScale: 0.3 });
  const file = join(dir.path, 'long.jsonl');
  writeFileSync(file, builder.jsonl());

  it('writes the document in chunks, each once standard output has taken the one before', async () => {
    const run = await runPaced(['replay', file, '--json'], dir.path);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.writes.length).toBeGreaterThan(2);
    expect(run.mostPending).toBe(1);
    const session = await loadSessionFile(file);
    expect(run.writes.join('')).toBe(`${JSON.stringify(replayJsonPayload(session), null, 2)}\n`);
  });

  it('writes to -o the bytes it prints, and never over the session it reads', async () => {
    const printed = await runPaced(['replay', file, '--json'], dir.path);
    const out = join(dir.path, 'long.json');
    const written = await runPaced(['replay', file, '--json', '-o', out], dir.path);
    expect(written.code).toBe(0);
    expect(written.writes).toEqual([]);
    expect(readFileSync(out, 'utf8')).toBe(printed.writes.join(''));
    const refused = await runPaced(['replay', file, '--json', '-o', file], dir.path);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to overwrite the input file');
    expect(readFileSync(file, 'utf8')).toBe(builder.jsonl());
  });
});
