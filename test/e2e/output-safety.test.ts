import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type LoopbackProvider, startLoopbackProvider } from '../../src/testing.js';
import { shareGptLine, writeDataset } from '../batch/helpers.js';
import { BIN, ROOT, runBinary, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');
const tmp = temporaryDirectory();
afterAll(() => tmp.remove());
let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let count = 0;
/** A fresh directory holding a copy of the example as `in.json`. */
function workspace(): { dir: string; input: string; original: string } {
  const dir = join(tmp.path, `w${count++}`);
  mkdirSync(dir);
  const input = join(dir, 'in.json');
  copyFileSync(EXAMPLE, input);
  return { dir, input, original: readFileSync(input, 'utf8') };
}

function temporaries(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

describe('-o never destroys an input, however the path reaches it', () => {
  it('refuses -o link/in.json where link -> . (exit 2, OUTPUT_REFUSED), and the input is intact', async () => {
    const { dir, input, original } = workspace();
    symlinkSync('.', join(dir, 'link'));
    const run = await runBinary(['convert', 'in.json', '--to', 'anthropic', '-o', 'link/in.json'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('condense: error OUTPUT_REFUSED: ');
    expect(run.stderr).toContain(`leads to ${input}`);
    expect(readFileSync(input, 'utf8')).toBe(original);
  });

  it('refuses -o real.json when the input is a link to it', async () => {
    const { dir, input, original } = workspace();
    symlinkSync('in.json', join(dir, 'alias.json'));
    const run = await runBinary(['redact', 'alias.json', '-o', 'in.json'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`a link to ${input}`);
    expect(readFileSync(input, 'utf8')).toBe(original);
    expect(lstatSync(join(dir, 'alias.json')).isSymbolicLink()).toBe(true);
  });

  it('refuses export -o onto one of the sessions it reads, reached through a link', async () => {
    const { dir } = workspace();
    const project = join(dir, 'project');
    mkdirSync(project);
    const session = join(project, 's.jsonl');
    writeFileSync(session, sessionLines());
    symlinkSync('project', join(dir, 'p'));
    const before = readFileSync(session, 'utf8');
    const run = await runBinary(['export', 'project', '--to', 'openai', '-o', 'p/s.jsonl'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('OUTPUT_REFUSED');
    expect(readFileSync(session, 'utf8')).toBe(before);
  });

  it('trajectories -o onto a link to the input folder, or a link inside the output folder, is refused', async () => {
    const { dir } = workspace();
    const data = join(dir, 'runs');
    writeDataset(data, 'a.jsonl', [shareGptLine(0)]);
    const dataset = readFileSync(join(data, 'a.jsonl'), 'utf8');
    symlinkSync('runs', join(dir, 'out'));
    const viaLink = await runBinary(['trajectories', 'runs', '-o', 'out', '--workers', '0'], { cwd: dir });
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toContain('OUTPUT_REFUSED');
    expect(viaLink.stderr).toContain(`leads to ${data}`);
    mkdirSync(join(dir, 'out2'));
    symlinkSync(join(data, 'a.jsonl'), join(dir, 'out2', 'a.jsonl'));
    const inside = await runBinary(['trajectories', 'runs', '-o', 'out2', '--workers', '0'], { cwd: dir });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('refusing to overwrite the input file');
    mkdirSync(join(dir, 'out3'));
    symlinkSync(join(data, 'a.jsonl'), join(dir, 'out3', 'compression_metrics.json'));
    const metrics = await runBinary(['trajectories', 'runs', '-o', 'out3', '--workers', '0'], { cwd: dir });
    expect(metrics.code).toBe(2);
    expect(metrics.stderr).toContain('refusing to overwrite the input file');
    expect(readFileSync(join(data, 'a.jsonl'), 'utf8')).toBe(dataset);
    expect(temporaries(data)).toEqual([]);
  });
});

describe('-o onto special files and links', () => {
  it('writes through a FIFO instead of replacing it', async () => {
    const { dir } = workspace();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve, reject) => {
      const cat = spawn('cat', [fifo]);
      let text = '';
      cat.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      cat.on('error', reject);
      cat.on('close', () => resolve(text));
    });
    const run = await runBinary(['convert', 'in.json', '--to', 'anthropic', '-o', 'pipe'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await reader)).toHaveProperty('messages');
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(temporaries(dir)).toEqual([]);
  });

  it('replaces the file a link points to, and the link stays a link (a dangling one creates its target)', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, 'target.json'), 'old\n');
    symlinkSync('target.json', join(dir, 'link.json'));
    symlinkSync('later.json', join(dir, 'dangling.json'));
    for (const out of ['link.json', 'dangling.json']) {
      const run = await runBinary(['convert', 'in.json', '--to', 'anthropic', '-o', out], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(lstatSync(join(dir, out)).isSymbolicLink()).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8'))).toHaveProperty('messages');
    expect(JSON.parse(readFileSync(join(dir, 'later.json'), 'utf8'))).toHaveProperty('messages');
  });

  it('keeps the mode of a replaced file (0600 stays 0600)', async () => {
    const { dir } = workspace();
    const secret = join(dir, 'secret.json');
    writeFileSync(secret, 'old\n');
    chmodSync(secret, 0o600);
    const run = await runBinary(['redact', 'in.json', '-o', 'secret.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(readFileSync(secret, 'utf8')).not.toBe('old\n');
  });

  it('refuses a directory as -o with a clear message', async () => {
    const { dir } = workspace();
    const run = await runBinary(['convert', 'in.json', '--to', 'anthropic', '-o', '.'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error OUTPUT_REFUSED: .*it is a directory/);
  });
});

describe('temporary files', () => {
  it('sweeps stale temporary files of our own naming from killed runs, and leaves others', async () => {
    const { dir } = workspace();
    const host = hostname()
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 24);
    const stale = `.out.json.condense-${host}-999999999-0123456789ab.tmp`;
    const foreignOld = '.out.json.condense-otherhost-42-0123456789ab.tmp';
    const foreignNew = '.out.json.condense-otherhost-43-0123456789ab.tmp';
    const otherTarget = `.other.json.condense-${host}-999999999-0123456789ab.tmp`;
    const notOurs = '.out.json.0123456789ab.tmp';
    for (const name of [stale, foreignOld, foreignNew, otherTarget, notOurs])
      writeFileSync(join(dir, name), '');
    const dayAgo = Date.now() / 1000 - 2 * 24 * 3600;
    utimesSync(join(dir, foreignOld), dayAgo, dayAgo);
    const run = await runBinary(['convert', 'in.json', '--to', 'anthropic', '-o', 'out.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(temporaries(dir).sort()).toEqual([foreignNew, notOurs, otherTarget].sort());
  });

  it('removes the temporary file of a write in progress when the run is stopped (SIGTERM)', async () => {
    const { dir } = workspace();
    // Every summary request hangs, so the output file of the entries stays open until the run is stopped.
    const loopback = await startLoopbackProvider({ script: () => ({ kind: 'hang' }) });
    server = loopback;
    writeDataset(dir, 'runs.jsonl', [shareGptLine(0), shareGptLine(1)]);
    const out = join(dir, 'out');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'trajectories',
        'runs.jsonl',
        '-o',
        'out',
        '--workers',
        '0',
        '--target',
        '500',
        '--summary-target',
        '60',
        '--model',
        'openai-compatible:m',
        '--base-url',
        `${server.url}/v1`,
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code, signal) => resolve(code ?? (signal === null ? null : 143))),
    );
    // Stopped while a summary request is in flight: the output's temporary file is open then, and stays open
    // as long as the request hangs (however slow the machine). No time limit here but the test's own.
    while (loopback.requests.length === 0 && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(loopback.requests.length, 'no summary request was made').toBeGreaterThan(0);
    expect(temporaries(out)).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(temporaries(out)).toEqual([]);
  });
});

/** A small Claude Code session file. */
function sessionLines(): string {
  const base = { sessionId: 's-1', cwd: '/w', version: '2.1.0', timestamp: '2026-01-10T09:00:00.000Z' };
  const user = {
    ...base,
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    message: { role: 'user', content: 'hi' },
  };
  const assistant = {
    ...base,
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}
