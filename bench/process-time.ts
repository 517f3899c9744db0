import { spawnSync } from 'node:child_process';

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
