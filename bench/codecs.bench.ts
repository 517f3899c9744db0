import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeDocument, encodeDocument } from '../src/codecs/registry.js';
import { CORPUS_DIR } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const FOLDERS = {
  anthropic: 'anthropic',
  'claude-code': 'claude-code',
  openai: 'openai',
  sharegpt: 'sharegpt',
} as const;

/** Parses text the way a generic reader would: one JSON document, or one value per line. */
function parseOnly(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.split('\n').flatMap((line) => (line.trim() === '' ? [] : [JSON.parse(line)]));
  }
}

/** Decode and encode of every corpus file per format, next to plain JSON.parse (+ stringify) of the same bytes. */
const suite: BenchSuite = {
  name: 'codecs: decode + encode over the corpus',
  async run() {
    const rows: BenchRow[] = [];
    for (const [format, folder] of Object.entries(FOLDERS)) {
      const texts = readdirSync(join(CORPUS_DIR, folder))
        .filter((name) => !name.endsWith('.meta.json'))
        .map((name) => readFileSync(join(CORPUS_DIR, folder, name), 'utf8'));
      const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
      const parse = await timeMedian(() => {
        for (const text of texts) parseOnly(text);
      });
      const parseStringify = await timeMedian(() => {
        for (const text of texts) JSON.stringify(parseOnly(text));
      });
      const decode = await timeMedian(() => {
        for (const text of texts) decodeDocument(text);
      });
      const documents = texts.map((text) => decodeDocument(text));
      const encode = await timeMedian(() => {
        for (const document of documents) encodeDocument(document);
      });
      rows.push({
        suite: 'codecs',
        case: `${format} (${texts.length} files, ${round(bytes / 1e6)} MB)`,
        figures: {
          'JSON.parse MB/s': megabytesPerSecond(bytes, parse),
          'decode MB/s': megabytesPerSecond(bytes, decode),
          'decode ÷ parse time': round(decode / parse),
          'encode MB/s': megabytesPerSecond(bytes, encode),
          'decode+encode ÷ parse+stringify time': round((decode + encode) / parseStringify),
        },
      });
    }
    return rows;
  },
};

export default suite;
