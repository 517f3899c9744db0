import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionBuilder } from '../session/generate-session.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';

describe('condense sessions (built binary)', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());

  it('prints one line per session with id, title, messages, tokens, compactions, dead branches and last activity', async () => {
    const project = join(dir.path, 'project');
    mkdirSync(project);
    const first = new SessionBuilder(51);
    const leaf = first.turn(null, { small: true });
    first.turn(first.compaction(leaf), { small: true });
    writeFileSync(join(project, `${first.sessionId}.jsonl`), first.jsonl());
    const second = new SessionBuilder(52);
    second.sideRecord('summary', leaf);
    const tip = second.turn(null, { small: true });
    second.turn(tip, { small: true });
    second.turn(tip, { small: true });
    writeFileSync(join(project, `${second.sessionId}.jsonl`), second.jsonl());
    writeFileSync(join(project, 'agent-1234abcd.jsonl'), first.jsonl());
    const run = await runBinary(['sessions', project]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /session\s+title\s+messages\s+tokens\s+compactions\s+dead\s+last activity\s+agent/,
    );
    expect(lines).toHaveLength(3);
    const firstLine = lines.find((line) => line.includes(first.sessionId)) as string;
    expect(firstLine).toMatch(/\s1\s+0\s+2026-\d\d-\d\d \d\d:\d\d:\d\d\s+claude-code$/);
    const json = JSON.parse((await runBinary(['sessions', project, '--json'])).stdout);
    expect(json.find((item: { sessionId: string }) => item.sessionId === first.sessionId).title).toBe(
      second.records[0]?.['summary'],
    );
    expect(json.find((item: { sessionId: string }) => item.sessionId === second.sessionId).deadBranches).toBe(
      1,
    );
  });

  it('searches one level down when given a projects root', async () => {
    const root = join(dir.path, 'projects');
    mkdirSync(join(root, '-home-user-a'), { recursive: true });
    const builder = new SessionBuilder(53);
    builder.turn(null, { small: true });
    writeFileSync(join(root, '-home-user-a', `${builder.sessionId}.jsonl`), builder.jsonl());
    const run = await runBinary(['sessions', root, '--json']);
    expect(JSON.parse(run.stdout).map((item: { sessionId: string }) => item.sessionId)).toEqual([
      builder.sessionId,
    ]);
  });

  it('fails clearly on a path that is not a directory', async () => {
    const file = join(dir.path, 'file.jsonl');
    writeFileSync(file, '');
    const run = await runBinary(['sessions', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not a directory');
  });
});
