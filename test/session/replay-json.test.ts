import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/load-session.js';
import { loadSessionFile, type SessionFile } from '../../src/session/load-session-file.js';
import { plainMessageJson } from '../../src/session/render-replay.js';
import { replayJsonChunks } from '../../src/session/replay-json.js';
import { ROOT, temporaryDirectory } from '../support/cli.js';
import { corpusFiles, shortName } from '../support/corpus.js';
import { buildSession, sessionPlanArb } from './arbitrary-session.js';
import { SessionBuilder } from './generate-session.js';

/** The `--json` document as `condense replay` built it before it streamed: one object, stringified whole. */
function wholeDocument(session: SessionFile): string {
  const payload = {
    session: {
      path: session.path,
      format: session.format,
      sessionId: session.sessionId,
      title: session.title ?? null,
      view: session.view,
      leaf: session.leaf ?? null,
      lastActivity: session.lastActivity ?? null,
      model: session.model ?? null,
      stats: session.stats,
    },
    messages: session.transcript.messages.map(plainMessageJson),
    boundaries: session.boundaries,
    queuedPrompts: session.queuedPrompts,
    deadBranches: session.deadBranches,
    subagents: session.subagents.map((agent) => ({
      agentId: agent.agentId,
      path: agent.path,
      layout: agent.layout,
      kind: agent.kind,
      callId: agent.callId ?? null,
      description: agent.description ?? null,
      messages: agent.session.transcript.messages.length,
    })),
    titles: session.titles,
    issues: session.issues,
  };
  return `${JSON.stringify(payload, null, 2)}\n`;
}

function streamed(session: SessionFile): string {
  return [...replayJsonChunks(session)].join('');
}

function asFile(bytes: Uint8Array, view: 'full' | 'context'): SessionFile {
  return { ...loadSession(bytes, { view }), path: '/sessions/s.jsonl', subagents: [] };
}

describe('replayJsonChunks (property)', () => {
  it('writes the bytes of the whole-document JSON for random damaged session trees, in both views', () => {
    fc.assert(
      fc.property(sessionPlanArb(), fc.constantFrom('full' as const, 'context' as const), (plan, view) => {
        const session = asFile(buildSession(plan), view);
        expect(streamed(session)).toBe(wholeDocument(session));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every escape of any prompt text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), fc.nat(), (text, seed) => {
        const builder = new SessionBuilder(seed);
        const tip = builder.turn(null, { small: true });
        const line = JSON.stringify({
          parentUuid: tip,
          isSidechain: false,
          type: 'user',
          message: { role: 'user', content: text },
          uuid: 'ffffffff-0000-4000-8000-000000000000',
          sessionId: 'replay-json',
          timestamp: '2025-11-17T23:59:00.000Z',
        });
        const session = asFile(new TextEncoder().encode(`${builder.jsonl()}${line}\n`), 'full');
        expect(streamed(session)).toBe(wholeDocument(session));
      }),
      { numRuns: 200 },
    );
  });
});

describe('replayJsonChunks', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());

  it('hands out a long session in chunks of at most 64 K characters and one message, subagents listed', async () => {
    const builder = new SessionBuilder(61);
    let tip = builder.turn(null, { outputScale: 0.5 });
    for (let turn = 0; turn < 40; turn++) tip = builder.turn(tip, { outputScale: 0.5 });
    const path = join(dir.path, 'long.jsonl');
    writeFileSync(path, builder.jsonl());
    const agents = join(dir.path, 'long', 'subagents');
    mkdirSync(agents, { recursive: true });
    const agent = new SessionBuilder(62);
    agent.turn(null, { small: true });
    writeFileSync(join(agents, 'agent-a1.jsonl'), agent.jsonl());
    const session = await loadSessionFile(path);
    expect(session.subagents).toHaveLength(1);
    const chunks = [...replayJsonChunks(session)];
    expect(chunks.length).toBeGreaterThan(2);
    // A message is one piece: a chunk is cut at the first piece that takes it past 64 K characters.
    const longestMessage = Math.max(
      ...session.transcript.messages.map(
        (message) => JSON.stringify(plainMessageJson(message), null, 2).replaceAll('\n', '\n    ').length + 8,
      ),
    );
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
      expect(chunk.length).toBeLessThan(64 * 1024 + longestMessage);
    }
    expect(chunks.join('')).toBe(wholeDocument(session));
  });

  const fixtures = ['claude-code', 'codex'].flatMap((folder) =>
    readdirSync(join(ROOT, 'test/fixtures', folder)).map((name) => join(ROOT, 'test/fixtures', folder, name)),
  );
  it.each(fixtures.map((file) => [shortName(file), file]))(
    'fixture %s: the same bytes as the whole document',
    async (_name, file) => {
      for (const view of ['full', 'context'] as const) {
        const session = await loadSessionFile(file, { view });
        expect(streamed(session)).toBe(wholeDocument(session));
      }
    },
  );

  // The committed sample in the unit layer; the whole shared corpus in the corpus layer.
  it.each(corpusFiles('claude-code').map((file) => [shortName(file), file]))(
    'corpus %s: the same bytes as the whole document',
    async (_name, file) => {
      const session = await loadSessionFile(file);
      expect(streamed(session)).toBe(wholeDocument(session));
    },
  );
});
