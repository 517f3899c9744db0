import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTrajectories } from '../../src/batch/run-trajectories.js';
import { createWorkerPool, defaultWorkerScript } from '../../src/batch/worker-pool.js';
import { openOrderedJsonlWriter } from '../../src/io/ordered-jsonl-writer.js';
import { temporaryDirectory } from '../support/cli.js';
import { shareGptLine, testConfig, writeDataset } from './helpers.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

describe('ordered JSONL writer', () => {
  it('writes lines in order whatever order they arrive in, and the file appears only when finished', async () => {
    const path = join(tmp.path, 'ordered.jsonl');
    const writer = await openOrderedJsonlWriter(path, 4);
    await writer.put(2, 'c');
    await writer.put(0, 'a');
    expect(writer.pending).toBe(1);
    await writer.put(3, 'd');
    expect(existsSync(path)).toBe(false);
    expect(
      readdirSync(tmp.path).some((name) => name.startsWith('.ordered.jsonl.') && name.endsWith('.tmp')),
    ).toBe(true);
    await writer.put(1, 'b');
    expect(writer.pending).toBe(0);
    await writer.finish();
    expect(readFileSync(path, 'utf8')).toBe('a\nb\nc\nd\n');
    expect(readdirSync(tmp.path).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves the old file untouched when a line is missing or the write is aborted', async () => {
    const path = join(tmp.path, 'keep.jsonl');
    const first = await openOrderedJsonlWriter(path, 1);
    await first.put(0, 'old');
    await first.finish();
    const missing = await openOrderedJsonlWriter(path, 3);
    await missing.put(0, 'x');
    await missing.put(2, 'z');
    await expect(missing.finish()).rejects.toMatchObject({ code: 'IO_FAILED' });
    const aborted = await openOrderedJsonlWriter(path, 1);
    await aborted.put(0, 'new');
    await aborted.abort();
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(tmp.path).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

const WORKER = fileURLToPath(defaultWorkerScript());

describe('worker threads', () => {
  it('finds the built worker script (run npm run build first)', () => {
    expect(existsSync(WORKER), `${WORKER} is missing: run npm run build`).toBe(true);
  });

  it('produces exactly what the single-thread path produces', async () => {
    const dir = join(tmp.path, 'workers');
    const lines = Array.from({ length: 16 }, (_, index) => shareGptLine(index, index % 4 === 0 ? 2 : 8));
    lines.splice(5, 0, '{"broken": ');
    const path = writeDataset(dir, 'runs.jsonl', lines);
    const config = testConfig({
      tokenizer: 'o200k_base',
      settings: { targetMaxTokens: 600, summaryTargetTokens: 80 },
    });
    const single = await runTrajectories({
      inputs: [path],
      cwd: dir,
      out: join(dir, 'single'),
      config,
      workers: 0,
    });
    const pooled = await runTrajectories({
      inputs: [path],
      cwd: dir,
      out: join(dir, 'pooled'),
      config,
      workers: 2,
    });
    expect(single.counts.compressed).toBe(12);
    // Completion order differs between threads: only the floating-point sum of ratios may differ, in its last bit.
    expect({ ...pooled.counts, ratioSum: 0 }).toEqual({ ...single.counts, ratioSum: 0 });
    expect(pooled.counts.ratioSum).toBeCloseTo(single.counts.ratioSum, 9);
    expect(pooled.invalidLines).toBe(1);
    const strip = (text: string) => text.replace(/"processing":\{[^}]*\}/, '');
    expect(readFileSync(join(dir, 'pooled', 'runs.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'single', 'runs.jsonl'), 'utf8'),
    );
    expect(strip(JSON.stringify(pooled.metrics))).toBe(
      strip(JSON.stringify(single.metrics)).replaceAll('/single/', '/pooled/'),
    );
  });

  it('times an entry out in a worker and keeps it', async () => {
    const dir = join(tmp.path, 'worker-timeout');
    const path = writeDataset(dir, 'runs.jsonl', [shareGptLine(0)]);
    const pool = await createWorkerPool({ size: 1, config: testConfig(), timeoutMs: 1 });
    try {
      const result = await pool.run({
        id: 1,
        format: 'sharegpt',
        text: readFileSync(path, 'utf8').trim(),
        line: 1,
      });
      expect(['timed-out', 'compressed']).toContain(result.outcome);
      if (result.outcome === 'timed-out') expect(result.text).toBe(readFileSync(path, 'utf8').trim());
    } finally {
      await pool.close();
    }
  });

  it('fails to start with the tokenizer error when the tokenizer cannot be loaded', async () => {
    await expect(
      createWorkerPool({
        size: 1,
        config: testConfig({ tokenizer: './missing/tokenizer.json', cwd: tmp.path }),
        timeoutMs: 1000,
      }),
    ).rejects.toMatchObject({
      code: 'IO_FAILED',
    });
  });
});
