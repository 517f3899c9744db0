import { writeFileAtomic } from '../io/atomic-write.js';
import { openOrderedJsonlWriter } from '../io/ordered-jsonl-writer.js';
import { encodeParquetDataset } from '../io/parquet-dataset.js';
import type { PreparedFile } from './prepare-file.js';

/** Where the results of one file go, in entry order, written atomically on `finish`. */
export interface FileSink {
  put(index: number, text: string): Promise<void>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A sink for a prepared file in its own layout: JSONL is streamed line by line to a temporary file (lines wait
 * only for earlier ones); a JSON array or document is collected and written with the source's indentation. An
 * untouched single JSON document is written back with its original bytes.
 */
export async function openFileSink(prepared: PreparedFile): Promise<FileSink> {
  const path = prepared.file.output;
  if (prepared.layout === 'jsonl') return openOrderedJsonlWriter(path, prepared.entries.length);
  const texts: string[] = new Array(prepared.entries.length);
  return {
    put(index, text) {
      texts[index] = text;
      return Promise.resolve();
    },
    async finish() {
      if (prepared.parquet !== undefined) {
        // A sample writes only the sampled rows: the dataset is cut down to them first.
        const dataset = sampledDataset(prepared);
        await writeFileAtomic(path, encodeParquetDataset(dataset, prepared.entries, texts));
        return;
      }
      if (prepared.layout === 'json' && texts[0] === prepared.entries[0]?.text) {
        await writeFileAtomic(path, prepared.bytes);
        return;
      }
      const values = texts.map((text) => JSON.parse(text) as unknown);
      const value = prepared.layout === 'json' ? values[0] : values;
      await writeFileAtomic(path, `${JSON.stringify(value, null, prepared.indent)}\n`);
    },
    abort: () => Promise.resolve(),
  };
}

/** The Parquet rows the prepared entries came from, in entry order (all of them unless sampling). */
function sampledDataset(prepared: PreparedFile): NonNullable<PreparedFile['parquet']> {
  const dataset = prepared.parquet as NonNullable<PreparedFile['parquet']>;
  if (prepared.entries.length === dataset.rows.length) return dataset;
  return { ...dataset, rows: prepared.entries.map((entry) => dataset.rows[entry.line - 1] ?? {}) };
}
