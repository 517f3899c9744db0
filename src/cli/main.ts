import { constants } from 'node:os';
import { removeTemporariesSync } from '../io/temp-files.js';
import { runCli } from './run-cli.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Removes the temporary files of writes in progress on every way out: normal exit, a failure, or a stop signal.
 * A long-running command waiting in `untilStopped` (the proxy) is told to stop and shuts down on its own; any
 * other command, or a second signal, ends the process at once with the conventional 128 + signal number.
 */
function handleStops(): { untilStopped: () => Promise<void> } {
  const waiters: (() => void)[] = [];
  process.on('exit', removeTemporariesSync);
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      removeTemporariesSync();
      if (waiters.length > 0) {
        for (const wake of waiters.splice(0)) wake();
        return;
      }
      process.exit(128 + constants.signals[signal]);
    });
  }
  return { untilStopped: () => new Promise<void>((resolve) => waiters.push(resolve)) };
}

/** Resolves when a stream that refused more (`write` returned false) has flushed, or is closed. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Entry point of the `condense` binary: the only place that touches `process`. */
export async function main(): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A closed pipe (`condense … | head`) is a normal way for a reader to stop.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const stops = handleStops();
  const code = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stdoutPaced: (text) => (process.stdout.write(text) ? Promise.resolve() : drained(process.stdout)),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns ?? 100,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    pid: process.pid,
    untilStopped: stops.untilStopped,
  });
  process.exitCode = code;
}
