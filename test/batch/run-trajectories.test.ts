import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BatchEvent } from '../../src/batch/batch-events.js';
import { runTrajectories } from '../../src/batch/run-trajectories.js';
import type { TrajectoryRuntime } from '../../src/batch/trajectory-job.js';
import { getCodec } from '../../src/codecs/registry.js';
import {
  type LoopbackProvider,
  type LoopbackScript,
  loopbackReplies as reply,
  startLoopbackProvider,
} from '../../src/testing.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { temporaryDirectory } from '../support/cli.js';
import { agentRun } from '../trajectory/helpers.js';
import {
  extractiveRuntime,
  loopbackRuntime,
  requestText,
  shareGptLine,
  taskOf,
  testConfig,
  writeDataset,
} from './helpers.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());
let counter = 0;
function fresh(): string {
  counter++;
  return join(tmp.path, `case-${counter}`);
}

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function loopback(script: LoopbackScript): Promise<LoopbackProvider> {
  server = await startLoopbackProvider({ script });
  return server;
}

/** The lines of a written file. */
function linesOf(path: string): string[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

function run(
  inputs: string[],
  runtime: TrajectoryRuntime,
  extra: Partial<Parameters<typeof runTrajectories>[0]> = {},
) {
  const events: BatchEvent[] = [];
  const report = runTrajectories({
    inputs,
    cwd: tmp.path,
    config: testConfig(),
    runtime,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { report, events };
}

describe('runTrajectories: files and order', () => {
  it('writes one file per input, same name, entries in their original order, plus the metrics file', async () => {
    const dir = fresh();
    const data = join(dir, 'runs');
    const lines = Array.from({ length: 12 }, (_, index) => shareGptLine(index, index % 3 === 0 ? 2 : 8));
    writeDataset(data, 'a.jsonl', lines.slice(0, 7));
    writeDataset(data, 'b.jsonl', lines.slice(7));
    writeFileSync(join(data, 'notes.txt'), 'not a dataset');
    // Replies arrive in a scrambled order: later entries answer first.
    let seen = 0;
    const provider = await loopback(() => {
      seen++;
      return { text: realisticCheckpoint(`summary ${seen}`), delayMs: (20 - seen) * 15 };
    });
    const { report } = run([data], loopbackRuntime(provider), { concurrency: 8 });
    const done = await report;
    const out = join(dir, 'runs_compressed');
    expect(done.outputDir).toBe(out);
    expect(readdirSync(out).sort()).toEqual([
      '.condense-trajectories.json',
      'a.jsonl',
      'b.jsonl',
      'compression_metrics.json',
    ]);
    const written = [...linesOf(join(out, 'a.jsonl')), ...linesOf(join(out, 'b.jsonl'))];
    expect(written).toHaveLength(12);
    written.forEach((line, index) => {
      const entry = JSON.parse(line);
      expect(entry.conversations[1].value).toBe(taskOf(index));
      if (index % 3 === 0) {
        // Under the target: the very bytes that were read.
        expect(line).toBe(lines[index]);
      } else {
        expect(entry.compression_metrics).toMatchObject({
          was_compressed: true,
          summary_source: 'model',
          summarization_api_calls: 1,
        });
        expect(entry.conversations[4].value).toMatch(
          /^\[CONTEXT SUMMARY\]: ## Current Request\nsummary \d+\n/,
        );
        expect(Object.keys(entry)).toEqual([
          'conversations',
          'timestamp',
          'model',
          'completed',
          'compression_metrics',
        ]);
      }
    });
    const metrics = JSON.parse(readFileSync(join(out, 'compression_metrics.json'), 'utf8'));
    expect(metrics.summary).toMatchObject({
      total_trajectories: 12,
      trajectories_compressed: 8,
      trajectories_skipped_under_target: 4,
      trajectories_failed: 0,
    });
    expect(metrics.summarization).toMatchObject({ total_api_calls: 8, total_errors: 0, success_rate: 1 });
    expect(Object.keys(metrics)).toEqual([
      'summary',
      'tokens',
      'turns',
      'averages',
      'summarization',
      'processing',
      'files',
      'invalid_lines',
    ]);
    expect(readdirSync(out).some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('never has more entries in flight than the concurrency allows', async () => {
    const dir = fresh();
    const path = writeDataset(
      dir,
      'runs.jsonl',
      Array.from({ length: 20 }, (_, index) => shareGptLine(index)),
    );
    let active = 0;
    let peak = 0;
    const provider = await loopback(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 30));
      active--;
      return reply.text(realisticCheckpoint('ok'));
    });
    const done = await run([path], loopbackRuntime(provider), { concurrency: 3 }).report;
    expect(done.counts.compressed).toBe(20);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
  });

  it('reads an OpenAI JSONL of message arrays and writes the same format back', async () => {
    const dir = fresh();
    const codec = getCodec('openai');
    const lines = [0, 1, 2].map((index) => {
      const wire = codec.encode(agentRun({ steps: 8, output: 300, task: taskOf(index) })) as {
        messages: unknown[];
      };
      return JSON.stringify(wire.messages);
    });
    const path = writeDataset(dir, 'openai.jsonl', lines);
    const done = await run([path], extractiveRuntime()).report;
    expect(done.files[0]?.format).toBe('openai');
    expect(done.counts.compressed).toBe(3);
    const written = linesOf(join(dir, 'openai_compressed', 'openai.jsonl'));
    written.forEach((line, index) => {
      const value = JSON.parse(line);
      expect(Array.isArray(value)).toBe(true);
      expect(value[1]).toEqual({ role: 'user', content: taskOf(index) });
      expect(value[4].role).toBe('user');
      expect(value[4].content).toMatch(/^\[CONTEXT SUMMARY\]: /);
      expect(value.length).toBeLessThan(JSON.parse(lines[index] as string).length);
    });
  });

  it('reads a JSON array dataset and writes a JSON array back', async () => {
    const dir = fresh();
    const entries = [0, 1].map((index) => JSON.parse(shareGptLine(index)));
    mkdir(dir);
    writeFileSync(join(dir, 'set.json'), JSON.stringify(entries, null, 2));
    const done = await run([join(dir, 'set.json')], extractiveRuntime(), { out: join(dir, 'out') }).report;
    expect(done.counts.compressed).toBe(2);
    const text = readFileSync(join(dir, 'out', 'set.json'), 'utf8');
    expect(text.startsWith('[\n  {')).toBe(true);
    expect(JSON.parse(text)).toHaveLength(2);
  });
});

describe('runTrajectories: entries that go wrong are kept, counted and reported', () => {
  it('keeps a timed-out entry in its original form and counts it as failed', async () => {
    const dir = fresh();
    const lines = [0, 1, 2, 3].map((index) => shareGptLine(index));
    const path = writeDataset(dir, 'runs.jsonl', lines);
    // Entry 2's summary request never gets an answer.
    const hanging = await loopback((request) =>
      requestText(request.body).includes('E2s') ? { kind: 'hang' } : reply.text(realisticCheckpoint('ok')),
    );
    const { report, events } = run([path], loopbackRuntime(hanging), { timeoutMs: 300 });
    const done = await report;
    expect(done.counts).toMatchObject({ total: 4, compressed: 3, failed: 1, timedOut: 1 });
    const written = linesOf(join(dir, 'runs_compressed', 'runs.jsonl'));
    expect(written[2]).toBe(lines[2]);
    expect(done.issues).toEqual([expect.objectContaining({ file: path, line: 3, kind: 'timed-out' })]);
    expect(events.some((event) => event.type === 'issue' && event.issue.kind === 'timed-out')).toBe(true);
    const metrics = JSON.parse(
      readFileSync(join(dir, 'runs_compressed', 'compression_metrics.json'), 'utf8'),
    );
    expect(metrics.summary).toMatchObject({ trajectories_failed: 1, trajectories_timed_out: 1 });
  });

  it('keeps an entry whose processing throws, and carries invalid lines through with their line numbers', async () => {
    const dir = fresh();
    const lines = [
      shareGptLine(0),
      '{"conversations": [ broken',
      '',
      shareGptLine(1),
      shareGptLine(2),
      '[1, 2',
      '{"no": "turns"}',
    ];
    const path = writeDataset(dir, 'runs.jsonl', lines);
    const runtime = extractiveRuntime();
    const throwing: TrajectoryRuntime = {
      chain: runtime.chain,
      counter: {
        ...runtime.counter,
        countMessage: (message) => {
          if (JSON.stringify(message).includes(taskOf(1))) throw new Error('counter exploded');
          return runtime.counter.countMessage(message);
        },
      },
    };
    const done = await run([path], throwing).report;
    const written = linesOf(join(dir, 'runs_compressed', 'runs.jsonl'));
    expect(written).toHaveLength(6);
    expect(written[1]).toBe(lines[1]);
    expect(written[2]).toBe(lines[3]);
    expect(written[4]).toBe(lines[5]);
    expect(written[5]).toBe(lines[6]);
    expect(done.invalidLines).toBe(2);
    expect(done.counts).toMatchObject({ total: 4, compressed: 2, failed: 1, passthrough: 1 });
    expect(done.issues.map((found) => [found.line, found.kind])).toEqual(
      expect.arrayContaining([
        [2, 'invalid-line'],
        [4, 'failed'],
        [6, 'invalid-line'],
        [7, 'passthrough'],
      ]),
    );
    expect(done.issues.find((found) => found.kind === 'failed')?.message).toContain('counter exploded');
  });

  it('reports a file it cannot read as an error and still writes the others', async () => {
    const dir = fresh();
    const good = writeDataset(dir, 'good.jsonl', [shareGptLine(0)]);
    const bad = writeDataset(dir, 'bad.jsonl', ['not json at all', 'still not']);
    const done = await run([good, bad], extractiveRuntime(), { out: join(dir, 'out') }).report;
    expect(done.files.map((file) => file.status)).toEqual(['written', 'error']);
    expect(done.files[1]?.message).toMatch(/no entry of the file is valid JSON/);
    expect(existsSync(join(dir, 'out', 'good.jsonl'))).toBe(true);
    expect(existsSync(join(dir, 'out', 'bad.jsonl'))).toBe(false);
  });
});

describe('runTrajectories: resume, sample, dry run, progress', () => {
  it('skips files an earlier run finished, and redoes them when the input or the settings change', async () => {
    const dir = fresh();
    const a = writeDataset(dir, 'a.jsonl', [shareGptLine(0), shareGptLine(1)]);
    const b = writeDataset(dir, 'b.jsonl', [shareGptLine(2)]);
    const out = join(dir, 'out');
    await run([a, b], extractiveRuntime(), { out }).report;
    const before = statSync(join(out, 'a.jsonl')).mtimeMs;
    const again = run([a, b], extractiveRuntime(), { out });
    const second = await again.report;
    expect(second.files.map((file) => file.status)).toEqual(['resumed', 'resumed']);
    expect(second.counts.compressed).toBe(3);
    expect(statSync(join(out, 'a.jsonl')).mtimeMs).toBe(before);
    expect(again.events.filter((event) => event.type === 'file-resumed')).toHaveLength(2);
    // A changed input is redone; the untouched one stays finished.
    writeFileSync(a, `${shareGptLine(0)}\n${shareGptLine(1)}\n${shareGptLine(3)}\n`);
    const third = await run([a, b], extractiveRuntime(), { out }).report;
    expect(third.files.map((file) => file.status)).toEqual(['written', 'resumed']);
    expect(linesOf(join(out, 'a.jsonl'))).toHaveLength(3);
    // Other settings: everything is redone. No resume: everything is redone.
    const fourth = await run([a, b], extractiveRuntime(), {
      out,
      config: testConfig({ settings: { targetMaxTokens: 1400, summaryTargetTokens: 100 } }),
    }).report;
    expect(fourth.files.map((file) => file.status)).toEqual(['written', 'written']);
    const fifth = await run([a, b], extractiveRuntime(), {
      out,
      config: testConfig({ settings: { targetMaxTokens: 1400, summaryTargetTokens: 100 } }),
      resume: false,
    }).report;
    expect(fifth.files.map((file) => file.status)).toEqual(['written', 'written']);
  });

  it('draws the same seeded sample every time, kept in file order', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 40 }, (_, index) => shareGptLine(index, 2));
    const path = writeDataset(dir, 'runs.jsonl', lines);
    const tasks = async (seed: number, out: string) => {
      await run([path], extractiveRuntime(), { out: join(dir, out), samplePercent: 25, seed }).report;
      return linesOf(join(dir, out, 'runs.jsonl')).map(
        (line) => JSON.parse(line).conversations[1].value as string,
      );
    };
    const first = await tasks(7, 'o1');
    const second = await tasks(7, 'o2');
    const other = await tasks(8, 'o3');
    expect(first).toHaveLength(10);
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
    const positions = first.map((task) => lines.findIndex((line) => line.includes(task)));
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  it('writes nothing and calls no model in a dry run, but predicts the outcome', async () => {
    const dir = fresh();
    const path = writeDataset(dir, 'runs.jsonl', [shareGptLine(0), shareGptLine(1, 2)]);
    const provider = await loopback([reply.text(realisticCheckpoint('never'))]);
    const done = await run([path], loopbackRuntime(provider), { config: testConfig({ dryRun: true }) })
      .report;
    expect(done.dryRun).toBe(true);
    expect(done.counts).toMatchObject({ total: 2, compressed: 1, skippedUnderTarget: 1 });
    expect(done.counts.tokensAfter).toBeLessThan(done.counts.tokensBefore);
    expect(done.files[0]?.status).toBe('planned');
    expect(existsSync(join(dir, 'runs_compressed'))).toBe(false);
    expect(provider.requests).toHaveLength(0);
  });

  it('reports progress computed from the injected clock', async () => {
    const dir = fresh();
    const path = writeDataset(
      dir,
      'runs.jsonl',
      Array.from({ length: 6 }, (_, index) => shareGptLine(index)),
    );
    let clock = 1_000_000;
    const { report, events } = run([path], extractiveRuntime(), {
      now: () => {
        clock += 500;
        return clock;
      },
    });
    const done = await report;
    const progress = events.flatMap((event) => (event.type === 'progress' ? [event.progress] : []));
    expect(progress.map((item) => item.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every((item) => item.total === 6)).toBe(true);
    const last = progress[5];
    expect(last?.compressed).toBe(6);
    expect(last?.eta).toBe(0);
    expect(last?.rate).toBeCloseTo(6 / (last?.elapsedSeconds ?? 1), 10);
    expect(last?.tokensSaved).toBe(done.counts.tokensBefore - done.counts.tokensAfter);
    expect(events[0]?.type).toBe('start');
    expect(events.at(-1)?.type).toBe('done');
    expect(
      JSON.parse(readFileSync(done.metricsPath as string, 'utf8')).processing.duration_seconds,
    ).toBeGreaterThan(0);
  });

  it('refuses settings no entry can run with before writing anything', async () => {
    const dir = fresh();
    const path = writeDataset(dir, 'runs.jsonl', [shareGptLine(0), shareGptLine(1)]);
    const out = join(dir, 'out');
    const config = testConfig({ settings: { targetMaxTokens: 500, summaryTargetTokens: 750 } });
    await expect(run([path], extractiveRuntime(), { config, out }).report).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining(
        'summaryTargetTokens (750) must be smaller than targetMaxTokens (500)',
      ),
    });
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to write into a directory that holds an input, and needs -o for several inputs', async () => {
    const dir = fresh();
    const a = writeDataset(dir, 'a.jsonl', [shareGptLine(0)]);
    const b = writeDataset(dir, 'b.jsonl', [shareGptLine(1)]);
    await expect(run([a, b], extractiveRuntime()).report).rejects.toMatchObject({ code: 'USAGE' });
    await expect(run([a], extractiveRuntime(), { out: dir }).report).rejects.toMatchObject({
      code: 'OUTPUT_REFUSED',
    });
  });
});

function mkdir(path: string): void {
  writeDataset(path, '.keep', []);
}
