import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPORT_RSS = fileURLToPath(new URL('./peers/report-rss.cjs', import.meta.url));

/** Wall time in milliseconds of one run of `node …args` to the end, its output thrown away; throws if it fails. */
export function processMs(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr.toString()}`);
  return ms;
}

/**
 * Median wall times of several commands, run in turns (one of each per round) so that a change in the load of a
 * shared machine weighs on all of them alike.
 */
export function interleavedMedians(commands: readonly (readonly string[])[], rounds: number): number[] {
  const times = commands.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, args] of commands.entries()) times[index]?.push(processMs(args));
  }
  return times.map((list) => {
    const sorted = [...list].sort((left, right) => left - right);
    return sorted[Math.floor(sorted.length / 2)] as number;
  });
}

/** Wall time and peak resident set size of one run of `node …args`, its output thrown away. */
export function processRun(args: readonly string[]): { ms: number; maxRssMb: number } {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--require', REPORT_RSS, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 20,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const stderr = run.stderr.toString();
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${stderr}`);
  const kib = /bench-max-rss-kib (\d+)/.exec(stderr)?.[1];
  return { ms, maxRssMb: kib === undefined ? Number.NaN : Number(kib) / 1024 };
}

/** Median wall time and median peak RSS of several commands, run in turns as {@link interleavedMedians} does. */
export function interleavedRuns(
  commands: readonly (readonly string[])[],
  rounds: number,
): { ms: number; maxRssMb: number }[] {
  const runs = commands.map(() => [] as { ms: number; maxRssMb: number }[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, args] of commands.entries()) runs[index]?.push(processRun(args));
  }
  const median = (values: number[]) =>
    [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] as number;
  return runs.map((list) => ({
    ms: median(list.map((run) => run.ms)),
    maxRssMb: median(list.map((run) => run.maxRssMb)),
  }));
}
