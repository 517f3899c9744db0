import {
  parquetMetadata,
  parquetReadObjects,
  parquetSchema,
  type SchemaElement,
  type SchemaTree,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parseNestedJson } from '../codecs/json-depth.js';
import { CondenseError } from '../errors/condense-error.js';
import { conformToSchema, toJsonValue } from './parquet-values.js';
import type { EntryText } from './read-entry-texts.js';

/** Columns that hold a trajectory, in the order they are looked for: ShareGPT, then OpenAI chat. */
export const TRAJECTORY_COLUMNS = ['conversations', 'messages'] as const;

/** A Parquet dataset as read: what is needed to write it back with only the trajectory column changed. */
export interface ParquetDataset {
  /** The column that holds each row's trajectory. */
  readonly column: string;
  /** The rows as the reader decoded them (64-bit integers as BigInt, timestamps as Date…). */
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  /** The file's flattened schema, as written in its footer. */
  readonly schema: readonly SchemaElement[];
  /** Top-level column names, in schema order. */
  readonly columns: readonly string[];
  /** The footer's key-value metadata. */
  readonly metadata: readonly { readonly key: string; readonly value?: string }[];
}

/** A Parquet file read as dataset entries. */
export interface ParquetEntries {
  readonly dataset: ParquetDataset;
  /** One entry per row: `{"<column>": <trajectory>}` as JSON, nulls left out (Parquet writes absent fields as null). */
  readonly entries: readonly EntryText[];
}

function parquetError(path: string, message: string, cause?: unknown): CondenseError {
  return new CondenseError({
    code: 'INVALID_INPUT',
    message: `${path}: ${message}`,
    hint: 'condense reads Parquet datasets with a ShareGPT `conversations` or an OpenAI `messages` column',
    location: { file: path },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Reads a Parquet dataset (Hugging Face style: one row per trajectory, in a ShareGPT `conversations` column or
 * an OpenAI `messages` column, either nested or as JSON text). `column` picks the column when both exist.
 * Every other column is kept as read, to be written back untouched. Throws `INVALID_INPUT` naming the file.
 */
export async function readParquetEntries(
  bytes: Uint8Array,
  path: string,
  column?: string,
): Promise<ParquetEntries> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata: ReturnType<typeof parquetMetadata>;
  let rows: Record<string, unknown>[];
  try {
    metadata = parquetMetadata(buffer);
    rows = (await parquetReadObjects({ file: buffer, metadata, compressors })) as Record<string, unknown>[];
  } catch (error) {
    throw parquetError(path, `not a readable Parquet file (${(error as Error).message})`, error);
  }
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  const chosen = column ?? TRAJECTORY_COLUMNS.find((name) => columns.includes(name));
  if (chosen === undefined || !columns.includes(chosen)) {
    throw parquetError(
      path,
      `no ${column ?? TRAJECTORY_COLUMNS.join(' or ')} column (columns: ${columns.join(', ')})`,
    );
  }
  const entries = rows.map((row, index) => {
    const value = row[chosen];
    const trajectory = typeof value === 'string' ? parseJsonText(value) : toJsonValue(value);
    return { line: index + 1, text: JSON.stringify({ [chosen]: trajectory ?? null }) };
  });
  return {
    dataset: {
      column: chosen,
      rows,
      schema: metadata.schema,
      columns,
      metadata: metadata.key_value_metadata ?? [],
    },
    entries,
  };
}

function parseJsonText(text: string): unknown {
  try {
    return parseNestedJson(text);
  } catch {
    return text;
  }
}

/**
 * Writes a dataset back with the entries' new texts: a row whose text is unchanged keeps every value as read; a
 * changed row gets its trajectory column from the text (fitted to the column's schema: a field the schema lacks
 * is an error, never dropped), and every other key of the text (`compression_metrics`, `turn_annotations`)
 * goes to a string column of that name holding JSON, added at the end when the file has none. The Arrow schema
 * in the footer is left out (it would describe the old columns); other footer metadata is kept while the
 * columns are the same. Throws `ENCODE_FAILED` naming the row.
 */
export function encodeParquetDataset(
  dataset: ParquetDataset,
  entries: readonly EntryText[],
  texts: readonly string[],
): Uint8Array {
  const tree = parquetSchema({ schema: [...dataset.schema] } as Parameters<typeof parquetSchema>[0]);
  const node = tree.children.find((child) => child.element.name === dataset.column) as SchemaTree;
  const values: unknown[] = [];
  const extras = new Map<string, (string | null)[]>();
  for (const [index, row] of dataset.rows.entries()) {
    const text = texts[index];
    if (text === undefined || text === entries[index]?.text) {
      values.push(row[dataset.column]);
      continue;
    }
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const trajectory = parsed[dataset.column];
    const where = `row ${index + 1}, column ${dataset.column}`;
    values.push(
      typeof row[dataset.column] === 'string'
        ? JSON.stringify(trajectory)
        : conformToSchema(trajectory, node, where),
    );
    for (const [key, extra] of Object.entries(parsed)) {
      if (key === dataset.column) continue;
      let column = extras.get(key);
      if (column === undefined) {
        column = new Array<string | null>(dataset.rows.length).fill(null);
        extras.set(key, column);
      }
      column[index] = JSON.stringify(extra);
    }
  }
  return writeColumns(dataset, tree, values, extras);
}

function writeColumns(
  dataset: ParquetDataset,
  tree: SchemaTree,
  values: readonly unknown[],
  extras: ReadonlyMap<string, readonly (string | null)[]>,
): Uint8Array {
  const schema = [...dataset.schema];
  const added: string[] = [];
  for (const key of extras.keys()) {
    const existing = tree.children.find((child) => child.element.name === key);
    if (existing === undefined) {
      added.push(key);
      schema.push({ name: key, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
    } else if (existing.children.length > 0 || existing.element.type !== 'BYTE_ARRAY') {
      throw new CondenseError({
        code: 'ENCODE_FAILED',
        message: `the Parquet column ${key} is not a string column, so ${key} cannot be written to it`,
        hint: 'drop the column, or run with --no-metrics',
      });
    }
  }
  const root = schema[0] as SchemaElement;
  schema[0] = { ...root, num_children: (root.num_children ?? 0) + added.length };
  const columnData = [...dataset.columns, ...added].map((name) => {
    const extra = extras.get(name);
    const data =
      name === dataset.column
        ? values
        : extra !== undefined
          ? dataset.rows.map(
              (row, index) => extra[index] ?? (added.includes(name) ? null : (row[name] ?? null)),
            )
          : dataset.rows.map((row) => row[name]);
    return { name, data: data as unknown[] };
  });
  const metadata = dataset.metadata.filter(
    (item) => item.key !== 'ARROW:schema' && (added.length === 0 || item.key !== 'huggingface'),
  );
  const buffer = parquetWriteBuffer({
    columnData,
    schema,
    ...(metadata.length === 0 ? {} : { kvMetadata: metadata.map((item) => ({ ...item })) }),
  });
  return new Uint8Array(buffer);
}
