import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/run-cli.js';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The built binary (`npm test` builds before running). */
export const BIN = join(ROOT, 'bin', 'condense.js');

/** What a CLI run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `condense` binary in a child process, as a user would. */
export function runBinary(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the CLI in-process with a captured context (fast; for behaviour tests of commands). */
export async function runInProcess(
  args: readonly string[],
  options: { cwd?: string; stdin?: string } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {},
    cwd: options.cwd ?? ROOT,
    stderrIsTTY: false,
    columns: 120,
    readStdin: async () => options.stdin ?? '',
  });
  return { code, stdout, stderr };
}

/** A fresh temporary directory, removed by the returned function. */
export function temporaryDirectory(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'condense-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
