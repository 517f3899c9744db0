import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { taskOf } from '../batch/helpers.js';
import { conversations, shareGptParquet } from '../io/parquet-fixtures.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

describe('condense trajectories on Parquet (built binary)', () => {
  it('compresses a directory of Parquet shards into Parquet files of the same names', async () => {
    const data = join(tmp.path, 'dataset');
    mkdirSync(data);
    shareGptParquet(join(data, 'train-00000-of-00001.parquet'), conversations(6));
    const result = await runBinary(
      [
        'trajectories',
        data,
        '--tokenizer',
        'rough',
        '--target',
        '700',
        '--summary-target',
        '60',
        '--workers',
        '0',
      ],
      { cwd: tmp.path },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/compressed 4 of 6 trajectories/);
    const bytes = readFileSync(join(tmp.path, 'dataset_compressed', 'train-00000-of-00001.parquet'));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = (await parquetReadObjects({ file: buffer })) as Record<string, unknown>[];
    expect(rows.map((row) => (row['conversations'] as { value: string }[])[1]?.value)).toEqual(
      Array.from({ length: 6 }, (_, index) => taskOf(index)),
    );
    expect(rows.map((row) => row['id'])).toEqual(
      Array.from({ length: 6 }, (_, index) => BigInt(index) * 10_000_000_000n),
    );
    expect(rows.filter((row) => row['compression_metrics'] !== null)).toHaveLength(4);
  });
});
