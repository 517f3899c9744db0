import { writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { shareGptLine } from '../batch/helpers.js';

/** The schema pyarrow writes for a Hugging Face ShareGPT dataset, plus columns of other kinds. */
export const SHAREGPT_SCHEMA = [
  { name: 'schema', num_children: 5 },
  { name: 'id', type: 'INT64', repetition_type: 'OPTIONAL' },
  { name: 'conversations', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
  { name: 'from', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'source', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'score', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'tags', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
] as const;

/** The conversations of n ShareGPT runs (every third one short, so it stays under the target). */
export function conversations(count: number): unknown[][] {
  return Array.from({ length: count }, (_, index) => {
    const entry = JSON.parse(shareGptLine(index, index % 3 === 2 ? 2 : 8));
    return entry.conversations as unknown[];
  });
}

export function shareGptParquet(path: string, runs: readonly unknown[][]): void {
  const buffer = parquetWriteBuffer({
    schema: [...SHAREGPT_SCHEMA],
    columnData: [
      { name: 'id', data: runs.map((_, index) => BigInt(index) * 10_000_000_000n) },
      { name: 'conversations', data: runs as unknown[] },
      { name: 'source', data: runs.map((_, index) => (index % 2 === 0 ? 'hermes' : null)) },
      { name: 'score', data: runs.map((_, index) => index / 4) },
      { name: 'tags', data: runs.map((_, index) => (index % 2 === 0 ? ['agent', `run-${index}`] : [])) },
    ],
    kvMetadata: [{ key: 'huggingface', value: '{"info":{"features":{}}}' }],
  });
  writeFileSync(path, new Uint8Array(buffer));
}
