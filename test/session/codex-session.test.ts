import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { exportSession } from '../../src/session/export-session.js';
import { listSessions } from '../../src/session/list-sessions.js';
import { loadSession } from '../../src/session/load-session.js';
import { renderReplay } from '../../src/session/render-replay.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';
import { FIXTURES_DIR, fixtureFiles } from '../support/fixtures.js';
import { SessionBuilder } from './generate-session.js';

function bytes(name: string): Uint8Array {
  return readFileSync(join(FIXTURES_DIR, 'codex', name));
}

describe('Codex rollouts as sessions', () => {
  it('loads a real rollout: id, model, last activity, the conversation, nothing to complain about', () => {
    const session = loadSession(bytes('codemie-config-change.rollout.jsonl'));
    expect(session).toMatchObject({
      format: 'codex',
      sessionId: '019e1625-789d-76c0-80ab-3724b5ddb799',
      leaf: undefined,
      lastActivity: '2026-05-11T08:44:58.544Z',
    });
    expect(session.model).toMatch(/^gpt-/);
    expect(session.lastPrompt).toContain("let's update the defailt");
    expect(session.issues.filter((issue) => issue.severity !== 'info')).toEqual([]);
    expect(verifyTranscript(session.transcript, { provider: 'openai' })).toEqual([]);
  });

  it('gives each compaction the input size of the last token count before it that reports one', () => {
    const line = (type: string, payload: object) =>
      JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type, payload });
    const tokens = (input: unknown) =>
      line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: input } } });
    const turn = (said: string) => [
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: said }] }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'ok' }],
      }),
    ];
    const rollout = [
      line('session_meta', { id: 's', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w', instructions: 'x' }),
      ...turn('first'),
      line('compacted', { message: 'nothing counted yet' }),
      tokens(1200),
      ...turn('second'),
      tokens('unknown'),
      line('compacted', { message: 'after a count' }),
      ...turn('third'),
      line('compacted', { message: 'no new count' }),
    ].join('\n');
    const session = loadSession(new TextEncoder().encode(`${rollout}\n`));
    expect(session.boundaries.map((boundary) => boundary.preTokens)).toEqual([undefined, 1200, 1200]);
  });

  it('marks each Codex compaction where its checkpoint sits, with the prompt size before it', () => {
    const full = loadSession(bytes('derived-compactions.rollout.jsonl'));
    expect(full.boundaries.map((boundary) => [boundary.kind, boundary.line, boundary.link])).toEqual([
      ['codex-compaction', 13, 'crossed'],
      ['codex-compaction', 17, 'crossed'],
    ]);
    const first = full.boundaries[0];
    const checkpoint = full.transcript.messages[first?.messageIndex ?? -1];
    expect(checkpoint?.parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Progress so far'),
    });
    const context = loadSession(bytes('derived-compactions.rollout.jsonl'), { view: 'context' });
    expect(context.boundaries).toHaveLength(1);
    expect(context.boundaries[0]).toMatchObject({ link: 'start', line: 17 });
    expect(context.transcript.messages.length).toBeLessThan(full.transcript.messages.length);
    expect(renderReplay(full)).toContain('──── Codex compaction · line 13');
  });

  it('counts a rollback as a dead branch and says which lines it took off', () => {
    const session = loadSession(bytes('derived-rollback.rollout.jsonl'));
    expect(session.deadBranches.count).toBe(1);
    expect(session.deadBranches.records).toBeGreaterThan(3);
    expect(session.issues.find((issue) => issue.code === 'rolled-back')?.message).toMatch(
      /rolls back 1 turn/,
    );
  });

  it('refuses --leaf: a rollout has one history', () => {
    expect(() => loadSession(bytes('codemie-transcript-actions.rollout.jsonl'), { leaf: 'abc' })).toThrow(
      /one linear history/,
    );
  });

  it('reads every rollout fixture, early formats included', () => {
    for (const file of fixtureFiles('codex')) {
      const session = loadSession(readFileSync(file), { fileName: file });
      expect(session.format, file).toBe('codex');
      expect(session.transcript.messages.length, file).toBeGreaterThan(0);
    }
  });

  it('exports a rollout as a valid OpenAI dataset line with every call paired', () => {
    const session = loadSession(bytes('codemie-config-change.rollout.jsonl'));
    const { line } = exportSession(session, { to: 'openai' });
    const [transcript] = documentTranscripts(decodeDocument(JSON.stringify(line), { format: 'openai' }));
    expect(transcript).toBeDefined();
    expect(verifyTranscript(transcript as never, { provider: 'openai' })).toEqual([]);
    const calls = session.transcript.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-call'));
    expect(JSON.stringify(line)).toContain((calls[0] as { id: string }).id);
  });

  it('lists Codex and Claude Code sessions of one directory side by side', async () => {
    const dir = temporaryDirectory();
    try {
      const project = join(dir.path, '-home-user-project');
      mkdirSync(project, { recursive: true });
      const builder = new SessionBuilder(61);
      builder.turn(null, { small: true });
      writeFileSync(join(project, `${builder.sessionId}.jsonl`), builder.jsonl());
      const day = join(dir.path, '.codex', 'sessions', '2026', '05', '11');
      mkdirSync(day, { recursive: true });
      copyFileSync(
        join(FIXTURES_DIR, 'codex', 'codemie-config-change.rollout.jsonl'),
        join(day, 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'),
      );
      const listings = await listSessions(dir.path);
      expect(listings.map((listing) => listing.format).sort()).toEqual(['claude-code', 'codex']);
      const run = await runInProcess(['sessions', dir.path]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/019e1625-789d-76c0-80ab-3724b5ddb799.*codex/);
      expect(run.stdout).toMatch(new RegExp(`${builder.sessionId}.*claude-code`));
    } finally {
      dir.remove();
    }
  });

  it('replays and exports a rollout from the command line', async () => {
    const file = join(FIXTURES_DIR, 'codex', 'derived-compactions.rollout.jsonl');
    const replay = await runInProcess(['replay', file]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(
      /^session 019e1695-0522-7c83-8b39-0dd379793f80 · codex · \d+ messages · full view/,
    );
    expect(replay.stdout).toContain('Codex compaction');
    const json = JSON.parse((await runInProcess(['replay', file, '--json', '--context'])).stdout);
    expect(json.session.format).toBe('codex');
    expect(json.boundaries).toHaveLength(1);
    const exported = await runInProcess(['export', file, '--to', 'anthropic']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('exported 1 session(s) as anthropic');
    const [entry] = documentTranscripts(decodeDocument(exported.stdout, { format: 'anthropic' }));
    expect(verifyTranscript(entry as never, { provider: 'anthropic' })).toEqual([]);
  });
});
