import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { runTrajectories } from '../../src/batch/run-trajectories.js';
import { getCodec } from '../../src/codecs/registry.js';
import { encodeParquetDataset, readParquetEntries } from '../../src/io/parquet-dataset.js';
import { extractiveRuntime, taskOf, testConfig, writeDataset } from '../batch/helpers.js';
import { temporaryDirectory } from '../support/cli.js';
import { agentRun } from '../trajectory/helpers.js';
import { conversations, shareGptParquet } from './parquet-fixtures.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

async function rows(path: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return (await parquetReadObjects({ file: buffer })) as Record<string, unknown>[];
}

describe('Parquet datasets', () => {
  it('reads one entry per row and writes an unchanged dataset back value for value', async () => {
    const path = join(tmp.path, 'same.parquet');
    shareGptParquet(path, conversations(4));
    const bytes = new Uint8Array(readFileSync(path));
    const read = await readParquetEntries(bytes, path);
    expect(read.dataset.column).toBe('conversations');
    expect(read.entries.map((entry) => entry.line)).toEqual([1, 2, 3, 4]);
    expect(JSON.parse(read.entries[1]?.text ?? '').conversations[1].value).toBe(taskOf(1));
    const again = join(tmp.path, 'same-again.parquet');
    writeFileSync(
      again,
      encodeParquetDataset(
        read.dataset,
        read.entries,
        read.entries.map((entry) => entry.text),
      ),
    );
    expect(await rows(again)).toEqual(await rows(path));
  });

  it('compresses the conversations column as JSONL would, keeping every other column as it was', async () => {
    const runs = conversations(9);
    const dir = join(tmp.path, 'sharegpt');
    const input = join(dir, 'input');
    writeDataset(input, 'runs.jsonl', []);
    shareGptParquet(join(input, 'runs.parquet'), runs);
    const jsonl = writeDataset(
      join(dir, 'as-jsonl'),
      'runs.jsonl',
      runs.map((conversation) => JSON.stringify({ conversations: conversation })),
    );
    const common = { cwd: tmp.path, config: testConfig(), runtime: extractiveRuntime() };
    const parquetRun = await runTrajectories({
      ...common,
      inputs: [join(input, 'runs.parquet')],
      out: join(dir, 'out'),
    });
    await runTrajectories({ ...common, inputs: [jsonl], out: join(dir, 'out-jsonl') });
    expect(parquetRun.counts.compressed).toBe(6);
    const before = await rows(join(input, 'runs.parquet'));
    const after = await rows(join(dir, 'out', 'runs.parquet'));
    const expected = readFileSync(join(dir, 'out-jsonl', 'runs.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(after).toHaveLength(9);
    for (const [index, row] of after.entries()) {
      const reference = JSON.parse(expected[index] ?? '');
      expect(row['conversations']).toEqual(reference.conversations);
      for (const column of ['id', 'source', 'score', 'tags'])
        expect(row[column]).toEqual(before[index]?.[column]);
      const metrics = row['compression_metrics'];
      if (index % 3 === 2) expect(metrics).toBeNull();
      else expect(JSON.parse(metrics as string)).toEqual(reference.compression_metrics);
    }
    const written = readFileSync(join(dir, 'out', 'runs.parquet'));
    const footer = parquetMetadata(
      written.buffer.slice(written.byteOffset, written.byteOffset + written.byteLength) as ArrayBuffer,
    );
    // The Hugging Face features no longer describe the columns once one is added.
    expect((footer.key_value_metadata ?? []).some((item) => item.key === 'huggingface')).toBe(false);
  });

  it('reads an OpenAI messages column and refuses a file with no trajectory column', async () => {
    const run = agentRun({ steps: 8, output: 300, task: 'Task: fix it.' });
    const messages = getCodec('openai').encode({ messages: run.messages }) as { messages: unknown[] };
    const simple = messages.messages.map((message) => {
      const { role, content } = message as { role: string; content: unknown };
      return { role, content: typeof content === 'string' ? content : JSON.stringify(content) };
    });
    const path = join(tmp.path, 'openai.parquet');
    writeFileSync(
      path,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'messages', data: [simple] },
            { name: 'n', data: [1] },
          ],
        }),
      ),
    );
    const read = await readParquetEntries(new Uint8Array(readFileSync(path)), path);
    expect(read.dataset.column).toBe('messages');
    expect(JSON.parse(read.entries[0]?.text ?? '').messages[1]).toEqual({
      role: 'user',
      content: 'Task: fix it.',
    });
    const other = join(tmp.path, 'other.parquet');
    writeFileSync(other, new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'text', data: ['x'] }] })));
    await expect(readParquetEntries(new Uint8Array(readFileSync(other)), other)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('no conversations or messages column (columns: text)'),
    });
  });
});
