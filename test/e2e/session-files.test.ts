import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionBuilder } from '../session/generate-session.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

function writeSession(dir: string, seed: number): string {
  mkdirSync(dir, { recursive: true });
  const builder = new SessionBuilder(seed);
  builder.turn(null, { small: true });
  const path = join(dir, `${builder.sessionId}.jsonl`);
  writeFileSync(path, builder.jsonl());
  return builder.sessionId;
}

describe('session files', () => {
  it('export reports the lines it skipped, with file and line, as replay does', async () => {
    const builder = new SessionBuilder(81);
    builder.turn(null, { small: true });
    const lines = builder.jsonl().trimEnd().split('\n');
    lines.splice(2, 0, '{"type": "user", "uuid": broken');
    const file = join(tmp.path, 'damaged.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const replay = await runBinary(['replay', file, '--json']);
    const issue = JSON.parse(replay.stdout).issues.find(
      (item: { code: string }) => item.code === 'invalid-json',
    );
    expect(issue).toMatchObject({ line: 3, severity: 'error' });
    const run = await runBinary(['export', file, '--to', 'openai']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`condense: error: ${file}:3: ${issue.message}`);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('sessions and export DIR follow links to session files and project folders, once each, through loops', async () => {
    const store = join(tmp.path, 'store');
    const first = writeSession(store, 82);
    const second = writeSession(join(tmp.path, 'elsewhere'), 83);
    const project = join(tmp.path, 'project');
    mkdirSync(project);
    symlinkSync(join(store, `${first}.jsonl`), join(project, `${first}.jsonl`));
    symlinkSync(join(store, `${first}.jsonl`), join(project, 'again.jsonl'));
    symlinkSync(join(tmp.path, 'elsewhere', `${second}.jsonl`), join(project, `${second}.jsonl`));
    symlinkSync('.', join(project, 'loop.jsonl'));
    symlinkSync('missing.jsonl', join(project, 'dangling.jsonl'));
    const listed = await runBinary(['sessions', project, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      JSON.parse(listed.stdout)
        .map((item: { sessionId: string }) => item.sessionId)
        .sort(),
    ).toEqual([first, second].sort());
    const exported = await runBinary(['export', project, '--to', 'sharegpt']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('exported 2 session(s)');

    const root = join(tmp.path, 'projects');
    mkdirSync(root);
    symlinkSync(store, join(root, '-home-user-store'));
    symlinkSync('.', join(root, 'self'));
    symlinkSync(root, join(root, 'up'));
    const nested = await runBinary(['sessions', root, '--json']);
    expect(nested.code, nested.stderr).toBe(0);
    expect(JSON.parse(nested.stdout).map((item: { sessionId: string }) => item.sessionId)).toEqual([first]);
  });
});
