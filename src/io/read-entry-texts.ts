import { bufferView, scanLines } from './jsonl-scan.js';

/**
 * How a dataset file holds its entries. `jsonl`: one entry per line. `json-array`: one JSON array of entries.
 * `json`: one JSON document, one entry. `parquet`: one row per entry (see `readParquetEntries`).
 */
export type EntryFileLayout = 'jsonl' | 'json-array' | 'json' | 'parquet';

/** One entry of a dataset file as text, not parsed yet (parsing happens where the work is spread). */
export interface EntryText {
  /** 1-based line in a JSONL file; 0-based position + 1 in a JSON array. */
  readonly line: number;
  readonly text: string;
}

/** The entries of a dataset file. */
export interface EntryTexts {
  readonly layout: EntryFileLayout;
  readonly entries: readonly EntryText[];
  /** Indentation of a JSON file (0 = compact), reused when writing it back. */
  readonly indent: number;
  /** Size of the file in bytes. */
  readonly bytes: number;
}

function detectIndent(text: string): number {
  const match = /^[[{]\r?\n( +)/.exec(text.trimStart());
  return match?.[1]?.length ?? 0;
}

/**
 * Splits a dataset file into entry texts without parsing the entries. `*.jsonl` files are read as JSONL (line
 * spans found at memchr speed by `scanLines`; blank lines skipped; an unreadable line is still an entry, for
 * the caller to report and carry through). Other files are tried as one JSON document first (an array of
 * entries, or one entry) and read as JSONL when they are not.
 */
export function splitEntryTexts(bytes: Uint8Array, fileName: string): EntryTexts {
  const buf = bufferView(bytes);
  if (!fileName.toLowerCase().endsWith('.jsonl')) {
    const text = buf.toString('utf8');
    const start = text.trimStart()[0];
    if (start === '[' || start === '{') {
      try {
        const value: unknown = JSON.parse(text);
        const indent = detectIndent(text);
        if (Array.isArray(value)) {
          const entries = value.map((item, index) => ({ line: index + 1, text: JSON.stringify(item) }));
          return { layout: 'json-array', entries, indent, bytes: buf.length };
        }
        return { layout: 'json', entries: [{ line: 1, text: text.trim() }], indent, bytes: buf.length };
      } catch {
        // Not one JSON document: read it as JSONL below.
      }
    }
  }
  const lines = scanLines(buf);
  const entries: EntryText[] = [];
  for (let index = 0; index < lines.count; index++) {
    entries.push({
      line: lines.numbers[index] as number,
      text: buf.toString('utf8', lines.starts[index], lines.ends[index]),
    });
  }
  return { layout: 'jsonl', entries, indent: 0, bytes: buf.length };
}
