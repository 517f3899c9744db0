import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './harness.js';

/** What `bench/results/latest.json` holds: when and where each suite was last measured, and its rows. */
interface BenchResults {
  readonly suites: Readonly<Record<string, Readonly<Record<string, string | number>>>>;
  readonly rows: readonly BenchRow[];
}

const benchDir = fileURLToPath(new URL('.', import.meta.url));
// Any arguments name the suites to run (parts of their file names): `npm run bench -- replay cli-startup`.
const filters = process.argv.slice(2);

const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  const suite = (await import(join(benchDir, file))).default as BenchSuite;
  process.stderr.write(`running ${suite.name}…\n`);
  const suiteRows = await suite.run();
  rows.push(...suiteRows);
  printTable(suite.name, suiteRows);
}

// A filtered run refreshes only its suites' rows, so `latest.json` always holds every suite's newest figures.
const target = join(benchDir, 'results', 'latest.json');
const previous = existsSync(target)
  ? (JSON.parse(readFileSync(target, 'utf8')) as Partial<BenchResults>)
  : {};
const measuredNow = new Set(rows.map((row) => row.suite));
const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};
const runInfo = {
  date: new Date().toISOString(),
  command: `npm run bench${filters.length === 0 ? '' : ` -- ${filters.join(' ')}`}`,
  ...machine,
};
const result: BenchResults = {
  suites: {
    ...Object.fromEntries(Object.entries(previous.suites ?? {}).filter(([suite]) => !measuredNow.has(suite))),
    ...Object.fromEntries([...measuredNow].map((suite) => [suite, runInfo])),
  },
  rows: [...(previous.rows ?? []).filter((row) => !measuredNow.has(row.suite)), ...rows],
};
mkdirSync(join(benchDir, 'results'), { recursive: true });
writeFileSync(`${target}.tmp`, `${JSON.stringify(result, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
process.stderr.write(`wrote ${target}\n`);

function printTable(name: string, suiteRows: readonly BenchRow[]): void {
  const columns = ['case', ...new Set(suiteRows.flatMap((row) => Object.keys(row.figures)))];
  const cells = suiteRows.map((row) => [
    row.case,
    ...columns.slice(1).map((column) => format(row.figures[column])),
  ]);
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((cell) => (cell[index] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, index) => value.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  console.log(`\n### ${name}\n`);
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const cell of cells) console.log(line(cell));
}

function format(value: number | string | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? value.toLocaleString('en-US') : value;
}
