import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/session/list-sessions.js';
import { loadSessionFile } from '../../src/session/load-session-file.js';
import { temporaryDirectory } from '../support/cli.js';
import { CORPUS_DIR, FULL_CORPUS } from '../support/corpus.js';

/**
 * Rebuilds real project layouts from the corpus (whose file names flatten directories with `__`):
 * `<session>.jsonl`, `<session>/subagents/agent-*.jsonl` (+ `.meta.json`), and old `agent-*.jsonl` files.
 */
function buildProject(
  root: string,
  prefix: string,
  sessions: readonly string[],
  legacyAgents: readonly string[],
): void {
  const source = join(CORPUS_DIR, 'claude-code');
  for (const session of sessions) {
    copyFileSync(join(source, `${prefix}${session}.jsonl`), join(root, `${session}.jsonl`));
  }
  for (const agent of legacyAgents)
    copyFileSync(join(source, `${prefix}${agent}.jsonl`), join(root, `${agent}.jsonl`));
}

function addNested(
  root: string,
  prefix: string,
  session: string,
  agents: readonly string[],
  sidecars = false,
): void {
  const source = join(CORPUS_DIR, 'claude-code');
  const dir = join(root, session, 'subagents');
  mkdirSync(dir, { recursive: true });
  for (const agent of agents) {
    copyFileSync(join(source, `${prefix}${session}__subagents__${agent}.jsonl`), join(dir, `${agent}.jsonl`));
    if (sidecars)
      copyFileSync(
        join(source, `${prefix}${session}__subagents__${agent}.meta.json`),
        join(dir, `${agent}.meta.json`),
      );
  }
}

const DAAAIN = 'daaain__claude-code-log__';
const WORKTREES = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const NESTED_AGENTS = [
  'agent-a36efb2a1231c41e2',
  'agent-a4ca7529859c158c2',
  'agent-a52886dc180afb356',
  'agent-a6aa8ad077d9ea083',
  'agent-ab1e6e141221a29ab',
  'agent-aef063ba534d73153',
];

describe('subagent transcripts in real layouts', () => {
  const dir = temporaryDirectory();
  beforeAll(() => {
    buildProject(
      dir.path,
      DAAAIN,
      ['cb2e607c-c758-415a-8b45-c49e4631906a', 'a7da6a22-facc-4fcd-8bab-f83c87862004', WORKTREES],
      ['agent-2b93909d', 'agent-c8d9b115', 'agent-668b5ac2'],
    );
    addNested(dir.path, DAAAIN, WORKTREES, NESTED_AGENTS, true);
  });
  afterAll(() => dir.remove());

  it('finds the new layout <session>/subagents/, with the .meta.json descriptions', async () => {
    const session = await loadSessionFile(join(dir.path, `${WORKTREES}.jsonl`));
    expect(session.subagents.map((agent) => `agent-${agent.agentId}`).sort()).toEqual(NESTED_AGENTS);
    for (const agent of session.subagents) {
      expect(agent.layout).toBe('nested');
      expect(agent.kind).toBe('task');
      expect(agent.description).toBeTypeOf('string');
      expect(agent.session.transcript.messages.length).toBeGreaterThan(0);
    }
    expect(session.subagents.some((agent) => agent.callId?.startsWith('toolu_'))).toBe(true);
  });

  it('finds old-layout agent-*.jsonl files next to the session by the session id they carry', async () => {
    const session = await loadSessionFile(join(dir.path, 'cb2e607c-c758-415a-8b45-c49e4631906a.jsonl'));
    expect(session.subagents.map((agent) => [agent.agentId, agent.layout])).toEqual([['2b93909d', 'legacy']]);
    const other = await loadSessionFile(join(dir.path, 'a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl'));
    expect(other.subagents.map((agent) => agent.agentId)).toEqual(['c8d9b115']);
  });

  it('lists sessions without counting subagent files as sessions', async () => {
    const listings = await listSessions(dir.path);
    expect(listings.map((listing) => listing.sessionId).sort()).toEqual([
      'a7da6a22-facc-4fcd-8bab-f83c87862004',
      'cb2e607c-c758-415a-8b45-c49e4631906a',
      WORKTREES,
    ]);
    expect(listings.find((listing) => listing.sessionId === WORKTREES)?.subagents).toBe(6);
  });

  it.skipIf(!FULL_CORPUS)('marks the compaction summarizer subagent of a compacted session', async () => {
    const marot = temporaryDirectory();
    try {
      const session = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
      buildProject(marot.path, 'marot__spotter__', [session], []);
      addNested(marot.path, 'marot__spotter__', session, ['agent-aac57f5', 'agent-acompact-946d2b']);
      const loaded = await loadSessionFile(join(marot.path, `${session}.jsonl`));
      expect(loaded.subagents.map((agent) => [agent.agentId, agent.kind])).toEqual([
        ['aac57f5', 'task'],
        ['acompact-946d2b', 'compaction'],
      ]);
      expect(loaded.boundaries).toHaveLength(1);
    } finally {
      marot.remove();
    }
  });
});
