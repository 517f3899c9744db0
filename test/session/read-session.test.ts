import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/load-session.js';
import { readSession } from '../../src/session/read-session.js';
import { corpusFiles, HAS_CORPUS, shortName } from '../support/corpus.js';
import { buildSession, sessionPlanArb } from './arbitrary-session.js';
import { generateForkySession } from './generate-session.js';
import { comparable } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-read-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything a load returns, parse counts included: scanning from the file must parse what the memory scan parses. */
function whole(session: ReturnType<typeof loadSession>): unknown {
  return { ...(comparable(session) as object), stats: session.stats, issues: session.issues };
}

describe('readSession: the pre-filter scanning the file through a small buffer', () => {
  it('gives exactly what loadSession gives for the bytes, on random damaged sessions and any buffer size', async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(
        sessionPlanArb(),
        fc.constantFrom('full' as const, 'context' as const),
        fc.integer({ min: 16, max: 4096 }),
        async (plan, view, chunk) => {
          const bytes = buildSession(plan);
          const path = join(dir, `random-${index++}.jsonl`);
          writeFileSync(path, bytes);
          const streamed = await readSession(path, { view, fileName: path }, chunk);
          expect(whole(streamed)).toEqual(whole(loadSession(bytes, { view, fileName: path })));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a large session with dead branches the same way, parsing only part of it', async () => {
    const path = join(dir, 'forky.jsonl');
    writeFileSync(path, generateForkySession({ targetBytes: 3e6, deadShare: 0.9, seed: 7 }).text);
    const streamed = await readSession(path, { fileName: path });
    expect(streamed.stats.prefilter).toBe('used');
    expect(streamed.stats.parsedBytes).toBeLessThan(streamed.stats.bytes / 2);
    expect(whole(streamed)).toEqual(whole(loadSession(readFileSync(path), { fileName: path })));
  });

  it('keeps a byte-order mark, CRLF line ends and a missing final newline as the memory scan reads them', async () => {
    const text = generateForkySession({ targetBytes: 200_000, deadShare: 0.5, seed: 3 }).text;
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(text.trimEnd().replaceAll('\n', '\r\n')),
    ]);
    const path = join(dir, 'bom.jsonl');
    writeFileSync(path, bytes);
    const streamed = await readSession(path, { fileName: path }, 1000);
    expect(whole(streamed)).toEqual(whole(loadSession(bytes, { fileName: path })));
  });

  it('says which file could not be read', async () => {
    await expect(readSession(join(dir, 'missing.jsonl'), {})).rejects.toMatchObject({ code: 'IO_FAILED' });
  });
});

describe.skipIf(!HAS_CORPUS)('readSession on every real Claude Code file', () => {
  it.each(corpusFiles('claude-code').map((file) => [shortName(file), file]))(
    '%s: same session as loadSession of its bytes',
    async (_name, file) => {
      for (const view of ['full', 'context'] as const) {
        const streamed = await readSession(file, { fileName: file, view }, 4096);
        expect(whole(streamed)).toEqual(whole(loadSession(readFileSync(file), { fileName: file, view })));
      }
    },
  );
});
