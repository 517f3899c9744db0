import { detectFormat, getCodec } from '../codecs/registry.js';
import { CondenseError } from '../errors/condense-error.js';
import { checkTranscriptText } from '../io/check-text.js';
import { type ParquetDataset, readParquetEntries } from '../io/parquet-dataset.js';
import { readFileBytes } from '../io/read-bytes.js';
import { type EntryText, type EntryTexts, splitEntryTexts } from '../io/read-entry-texts.js';
import type { FormatName } from '../model/format.js';
import { createSeededRandom, sampleIndices } from '../trajectory/sample-entries.js';
import type { InputFile } from './input-files.js';

/** A dataset file read and ready to process. */
export interface PreparedFile {
  readonly file: InputFile;
  readonly bytes: Uint8Array;
  readonly layout: EntryTexts['layout'];
  readonly indent: number;
  readonly format: FormatName;
  /** The entries to process (the sample, when sampling), in file order. */
  readonly entries: readonly EntryText[];
  /** Entries in the file before sampling. */
  readonly available: number;
  /** A Parquet file's rows and schema, to write it back (layout `parquet`). */
  readonly parquet?: ParquetDataset;
}

/** The Parquet column each format's trajectories are in. */
const PARQUET_COLUMN: Partial<Record<FormatName, string>> = { sharegpt: 'conversations', openai: 'messages' };

/** Sampling of a file's entries. */
export interface SampleOptions {
  /** Percentage of entries kept, in (0, 100]. */
  readonly percent: number;
  readonly seed: number | string;
}

/** The format of the first entries that parse (up to 20): the one all of them fit, else the most common one. */
function detectEntries(entries: readonly EntryText[], path: string): FormatName {
  const sample: unknown[] = [];
  for (const entry of entries) {
    if (sample.length >= 20) break;
    try {
      sample.push(JSON.parse(entry.text));
    } catch {
      // Unreadable lines are reported when they are processed.
    }
  }
  if (sample.length === 0) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: 'no entry of the file is valid JSON',
      hint: 'condense trajectories reads JSONL datasets (ShareGPT, OpenAI messages…)',
      location: { file: path },
    });
  }
  try {
    return detectFormat(sample);
  } catch {
    // A few odd entries (non-trajectories, other shapes) must not hide the format of the rest: majority vote.
  }
  const votes = new Map<FormatName, number>();
  for (const value of sample) {
    try {
      const format = detectFormat([value]);
      votes.set(format, (votes.get(format) ?? 0) + 1);
    } catch {
      // This entry looks like no format; it is carried through when processed.
    }
  }
  let best: FormatName | undefined;
  for (const [format, count] of votes)
    if (best === undefined || count > (votes.get(best) ?? 0)) best = format;
  if (best !== undefined) return best;
  throw new CondenseError({
    code: 'UNKNOWN_FORMAT',
    message: 'could not recognise the trajectory format',
    hint: 'pass --format',
    location: { file: path },
  });
}

/**
 * Reads a dataset file, splits it into entries, detects the format (unless given) and draws the sample: a fresh
 * generator seeded with `seed` for every file, so each file's sample is reproducible on its own. Throws
 * `IO_FAILED`, `EMPTY_INPUT`, `INVALID_INPUT` or `UNKNOWN_FORMAT` naming the file; refuses record-per-line formats (Claude Code
 * sessions), which are one transcript per file rather than a dataset.
 */
export async function prepareFile(
  file: InputFile,
  format: FormatName | undefined,
  sample: SampleOptions | undefined,
): Promise<PreparedFile> {
  const bytes = await readFileBytes(file.input);
  let parquet: ParquetDataset | undefined;
  let split: EntryTexts;
  if (file.name.toLowerCase().endsWith('.parquet')) {
    const read = await readParquetEntries(
      bytes,
      file.input,
      format === undefined ? undefined : PARQUET_COLUMN[format],
    );
    parquet = read.dataset;
    split = { layout: 'parquet', entries: read.entries, indent: 0, bytes: bytes.byteLength };
  } else {
    checkTranscriptText(
      bytes,
      file.input,
      'condense trajectories reads JSONL datasets (ShareGPT, OpenAI messages…) and Parquet datasets',
    );
    split = splitEntryTexts(bytes, file.name);
  }
  if (split.entries.length === 0) {
    throw new CondenseError({
      code: 'EMPTY_INPUT',
      message: 'the file holds no entries',
      hint: 'condense trajectories reads JSONL datasets with one trajectory per line, a JSON array of them, or Parquet datasets',
      location: { file: file.input },
    });
  }
  const detected = format ?? detectEntries(split.entries, file.input);
  if (getCodec(detected).fileLayout === 'records') {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: `${detected} files are sessions (one transcript per file), not trajectory datasets`,
      hint: 'turn them into a dataset first: condense export <dir> --to sharegpt -o runs.jsonl',
      location: { file: file.input },
    });
  }
  let entries = split.entries;
  if (sample !== undefined && sample.percent < 100) {
    const picked = sampleIndices(entries.length, sample.percent, createSeededRandom(sample.seed));
    entries = picked.map((index) => split.entries[index] as EntryText);
  }
  return {
    file,
    bytes,
    layout: split.layout,
    indent: split.indent,
    format: detected,
    entries,
    available: split.entries.length,
    ...(parquet === undefined ? {} : { parquet }),
  };
}
