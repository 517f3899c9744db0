/** One measured figure set: a suite, a case and named numbers (units in the names, e.g. `MB/s`). */
export interface BenchRow {
  readonly suite: string;
  readonly case: string;
  readonly figures: Readonly<Record<string, number | string>>;
}

/** A benchmark suite; `run` returns its rows. Suites live in `bench/<area>.bench.ts`. */
export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchRow[]>;
}

/** Median wall time in milliseconds of `repeat` runs of `task` after `warmup` untimed runs. */
export async function timeMedian(
  task: () => unknown | Promise<unknown>,
  options: { repeat?: number; warmup?: number } = {},
): Promise<number> {
  const repeat = options.repeat ?? 5;
  for (let index = 0; index < (options.warmup ?? 1); index++) await task();
  const times: number[] = [];
  for (let index = 0; index < repeat; index++) {
    const start = process.hrtime.bigint();
    await task();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)] as number;
}

/** Megabytes per second for `bytes` processed in `milliseconds`. */
export function megabytesPerSecond(bytes: number, milliseconds: number): number {
  return round(bytes / 1e6 / (milliseconds / 1000));
}

/** Rounds to 3 significant decimals for display. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
