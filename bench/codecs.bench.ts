import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertTranscript } from '../src/codecs/convert/convert-transcript.js';
import { decodeDocument, encodeDocument, getCodec } from '../src/codecs/registry.js';
import { FORMAT_NAMES } from '../src/model/format.js';
import type { Message } from '../src/model/message.js';
import type { Transcript } from '../src/model/transcript.js';
import { verifyTranscript } from '../src/model/verify.js';
import { toolCall, toolResult, userMessage } from '../src/testing/transcript-builders.js';
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

/** A request answered by one response making `calls` parallel tool calls, one tool message per result. */
function parallelCalls(calls: number): Transcript {
  const parts = Array.from({ length: calls }, (_, index) =>
    toolCall('read_file', { path: `src/file-${index}.ts` }, `call_${index}`),
  );
  const results: Message[] = parts.map((call, index) => toolResult(call, `contents of file ${index}`));
  return {
    messages: [
      userMessage('read every file'),
      { role: 'assistant', parts },
      ...results,
      userMessage('now sum them up'),
    ],
  };
}

/**
 * One response with 10,000 and then 100,000 parallel calls, in every format: its wire form decoded, checked and
 * written to Anthropic's (whose messages merge the results into one). Pairing results with calls by searching a
 * list per result, merging them pairwise and sorting with a lookup per comparison were quadratic; ×10 the calls
 * should take about ×10 the time.
 */
async function parallelCallRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const previous = new Map<string, number>();
  for (const calls of [10_000, 100_000]) {
    const transcript = parallelCalls(calls);
    for (const format of FORMAT_NAMES) {
      const wire = convertTranscript(transcript, format).wire;
      const ms = await timeMedian(
        () => {
          const decoded = getCodec(format).decode(wire).value;
          verifyTranscript(decoded);
          convertTranscript(decoded, 'anthropic');
        },
        { repeat: 1, warmup: calls === 10_000 ? 1 : 0 },
      );
      const before = previous.get(format);
      rows.push({
        suite: 'codecs',
        case: `${format}: one response with ${calls.toLocaleString('en-US')} parallel calls, decode + verify + to anthropic`,
        figures: {
          ms: round(ms),
          ...(before === undefined ? {} : { 'vs 10,000': `${round(ms / before, 2)}×` }),
        },
      });
      previous.set(format, ms);
    }
  }
  return rows;
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
    rows.push(...(await parallelCallRows()));
    return rows;
  },
};

export default suite;
