import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeDocument } from '../src/codecs/registry.js';
import { bufferView, parseSpan, scanLines } from '../src/io/jsonl-scan.js';
import { loadSession } from '../src/session/load-session.js';
import { loadSessionFile } from '../src/session/load-session-file.js';
import { generateForkySession } from '../test/session/generate-session.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const SUITE = 'session';

/**
 * The byte pre-filter against parsing every line, on generated Claude-Code-shaped sessions whose dead branches
 * (rewinds) hold 99 % and 92 % of the bytes — the two cases Claude Code reports for its own pre-filter (41 MB /
 * 99 % dead: 56 → 3.9 ms; 151 MB / 92 % dead: 47 → 9.4 ms). Files are generated into a temporary directory and
 * removed afterwards. For each: how fast the machine merely reads the file, JSON.parse of every line (the floor
 * of any parse-everything loader), `loadSession` parsing every line, `loadSession` with the pre-filter (bytes
 * already in memory), and the pre-filter end to end from the path.
 */
const CASES = [
  { megabytes: 40, deadShare: 0.99, seed: 41 },
  { megabytes: 150, deadShare: 0.92, seed: 151 },
] as const;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Reads the file into a buffer allocated once (what a loader that reuses its buffer pays). */
function readInto(path: string, target: Buffer): number {
  const fd = openSync(path, 'r');
  try {
    let offset = 0;
    while (offset < target.length) {
      const read = readSync(fd, target, offset, target.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return offset;
  } finally {
    closeSync(fd);
  }
}

function parseEveryLine(bytes: Uint8Array): number {
  const buf = bufferView(bytes);
  const lines = scanLines(buf);
  let parsed = 0;
  for (let index = 0; index < lines.count; index++) {
    if (parseSpan(buf, lines.starts[index] as number, lines.ends[index] as number).ok) parsed++;
  }
  return parsed;
}

async function runCase(dir: string, spec: (typeof CASES)[number]): Promise<BenchRow[]> {
  const path = join(dir, `session-${spec.megabytes}mb.jsonl`);
  writeFileSync(
    path,
    generateForkySession({ targetBytes: spec.megabytes * 1e6, deadShare: spec.deadShare, seed: spec.seed })
      .text,
  );
  gc();
  const bytes = statSync(path).size;
  const label = `${round(bytes / 1e6, 1)} MB, ${Math.round(spec.deadShare * 100)} % dead`;
  const data = readFileSync(path);
  const check = loadSession(data);
  const reference = loadSession(data, { prefilter: false });
  if (JSON.stringify(check.chain) !== JSON.stringify(reference.chain) || check.stats.prefilter !== 'used') {
    throw new Error(`pre-filter disagrees with parse-all on ${path}`);
  }
  const figures = (ms: number, extra: Record<string, number | string> = {}) => ({
    ms: round(ms, 1),
    'MB/s': megabytesPerSecond(bytes, ms),
    ...extra,
  });
  const repeat = spec.megabytes > 100 ? 3 : 5;
  const reused = Buffer.allocUnsafe(bytes);
  // Each method starts from a collected heap, so none pays for the garbage of the one before.
  const measure = async (task: () => unknown, times: number) => {
    gc();
    return timeMedian(task, { repeat: times });
  };
  const readFresh = await measure(() => readFileSync(path), 7);
  const readReused = await measure(() => readInto(path, reused), 7);
  const parseAll = await measure(() => parseEveryLine(data), repeat);
  const loadAll = await measure(() => loadSession(data, { prefilter: false }), repeat);
  const loadFiltered = await measure(() => loadSession(data), 9);
  const endToEnd = await measure(() => loadSessionFile(path, { subagents: false }), 9);
  const stats = check.stats;
  const parsedShare = `${round((100 * stats.parsedBytes) / stats.bytes, 1)} % of bytes, ${stats.parsedLines}/${stats.lines} lines`;
  return [
    { suite: SUITE, case: `${label} · read (readFileSync, fresh buffer)`, figures: figures(readFresh) },
    { suite: SUITE, case: `${label} · read (reused buffer)`, figures: figures(readReused) },
    { suite: SUITE, case: `${label} · JSON.parse every line`, figures: figures(parseAll) },
    {
      suite: SUITE,
      case: `${label} · loadSession, parse every line`,
      figures: figures(loadAll, { 'vs parse-all': '1.00×' }),
    },
    {
      suite: SUITE,
      case: `${label} · loadSession, byte pre-filter (in memory)`,
      figures: figures(loadFiltered, {
        'vs parse-all': `${round(loadAll / loadFiltered, 1)}×`,
        parsed: parsedShare,
      }),
    },
    {
      suite: SUITE,
      case: `${label} · loadSessionFile, pre-filter (read + load)`,
      figures: figures(endToEnd, { 'vs parse-all': `${round((readFresh + loadAll) / endToEnd, 1)}×` }),
    },
  ];
}

/** A session of one prompt followed by `count` records that are not messages, each the child of the one before. */
function sideRecordRun(count: number): string {
  const lines = [
    JSON.stringify({
      type: 'user',
      uuid: 'm0',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'start' },
    }),
  ];
  for (let index = 1; index <= count; index++) {
    lines.push(
      JSON.stringify({
        type: 'system',
        subtype: 'informational',
        uuid: `r${index}`,
        parentUuid: index === 1 ? 'm0' : `r${index - 1}`,
        content: 'progress',
        sessionId: 's',
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Decoding a Claude Code file whose records that are not messages form one long chain: each is kept with the
 * message its parent chain reaches first, which was found by walking the chain again for every record (20,000 of
 * them took 8.8 s); ×4 the records should take about ×4 the time.
 */
async function sideRecordRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let previous: number | undefined;
  for (const count of [20_000, 80_000]) {
    const text = sideRecordRun(count);
    const ms = await timeMedian(() => decodeDocument(text, { fileName: 'chain.jsonl' }), { repeat: 3 });
    rows.push({
      suite: SUITE,
      case: `decode, one prompt then a chain of ${count.toLocaleString('en-US')} side records`,
      figures: {
        ms: round(ms),
        ...(previous === undefined ? {} : { 'vs 20,000': `${round(ms / previous, 2)}×` }),
      },
    });
    previous = ms;
  }
  return rows;
}

/**
 * A session of `exchanges` prompts and answers, with a queued prompt that never reached a message after each
 * answer: the worst case for finding which queued prompts a later message carries.
 */
function queuedPromptRun(exchanges: number): Buffer {
  const lines: string[] = [];
  for (let index = 0; index < exchanges * 2; index++) {
    const prompt = index % 2 === 0;
    lines.push(
      JSON.stringify({
        type: prompt ? 'user' : 'assistant',
        uuid: `m${index}`,
        parentUuid: index === 0 ? null : `m${index - 1}`,
        sessionId: 's',
        message: prompt
          ? { role: 'user', content: `step ${index}: carry on with the plan and report what changed` }
          : { role: 'assistant', content: [{ type: 'text', text: `done with step ${index - 1}` }] },
      }),
    );
    if (!prompt) {
      lines.push(
        JSON.stringify({
          type: 'queue-operation',
          operation: 'enqueue',
          sessionId: 's',
          content: `queued note ${index} that was never sent`,
        }),
      );
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * Loading a session whose prompt queue holds a prompt per exchange that no message carries: each was looked for
 * in every later message (10,000 exchanges took 5.8 s); ×10 the exchanges should take about ×10 the time.
 */
async function queuedPromptRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let previous: number | undefined;
  for (const exchanges of [5_000, 50_000]) {
    const bytes = queuedPromptRun(exchanges);
    const ms = await timeMedian(() => loadSession(bytes), { repeat: 3 });
    rows.push({
      suite: SUITE,
      case: `loadSession, ${exchanges.toLocaleString('en-US')} exchanges with a queued prompt never sent after each`,
      figures: {
        ms: round(ms),
        'MB/s': megabytesPerSecond(bytes.length, ms),
        ...(previous === undefined ? {} : { 'vs 5,000': `${round(ms / previous, 2)}×` }),
      },
    });
    previous = ms;
  }
  return rows;
}

const suite: BenchSuite = {
  name: 'session loading: byte pre-filter vs parse-all',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'condense-bench-session-'));
    try {
      const rows: BenchRow[] = [];
      for (const spec of CASES) rows.push(...(await runCase(dir, spec)));
      rows.push(...(await sideRecordRows()));
      rows.push(...(await queuedPromptRows()));
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
