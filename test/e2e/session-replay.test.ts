import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionBuilder } from '../session/generate-session.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';
import { CORPUS_DIR, FULL_CORPUS } from '../support/corpus.js';

const corpus = (name: string) => join(CORPUS_DIR, 'claude-code', name);

describe('condense replay (built binary)', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());

  it('prints the active conversation with tool calls, shortened results and the dead branch', async () => {
    const builder = new SessionBuilder(41);
    const first = builder.turn(null, { outputScale: 0.2 });
    builder.turn(first, { small: true });
    builder.turn(first, { small: true });
    const file = join(dir.path, 'session.jsonl');
    writeFileSync(file, builder.jsonl());
    const run = await runBinary(['replay', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^session [0-9a-f-]+ · claude-code · \d+ messages · full view/);
    expect(run.stdout).toContain('→ Bash {"command":');
    expect(run.stdout).toContain('← Bash  [toolu_');
    expect(run.stdout).toMatch(/… \(\+[\d,]+ chars\)/);
    expect(run.stdout).toMatch(/dead branches: 1 \(\d+ records\)\n {2}forks off line \d+/);
  });

  it('prints JSON with messages, boundaries, dead branches and issues', async () => {
    const builder = new SessionBuilder(42);
    const before = builder.turn(null, { small: true });
    builder.turn(builder.compaction(before), { small: true });
    const file = join(dir.path, 'compacted.jsonl');
    writeFileSync(file, `${builder.jsonl()}{"parentUuid":`);
    const run = await runBinary(['replay', file, '--json']);
    expect(run.code).toBe(0);
    const payload = JSON.parse(run.stdout);
    expect(payload.session.format).toBe('claude-code');
    expect(payload.boundaries).toHaveLength(1);
    expect(payload.boundaries[0].link).toBe('crossed');
    expect(payload.messages[payload.boundaries[0].messageIndex].parts[0].text).toMatch(
      /^This session is being/,
    );
    expect(payload.issues.map((issue: { code: string }) => issue.code)).toEqual(['truncated-line']);
    expect(JSON.stringify(payload.messages)).not.toContain('parentUuid');
  });

  it('follows another branch with --leaf and refuses an unknown one with exit code 2', async () => {
    const builder = new SessionBuilder(43);
    const first = builder.turn(null, { small: true });
    const abandoned = builder.turn(first, { small: true });
    builder.turn(first, { small: true });
    const file = join(dir.path, 'branches.jsonl');
    writeFileSync(file, builder.jsonl());
    const followed = await runBinary(['replay', file, '--leaf', abandoned.slice(0, 8), '--json']);
    expect(JSON.parse(followed.stdout).session.leaf.uuid).toBe(abandoned);
    const refused = await runBinary(['replay', file, '--leaf', 'zzzzzzzz']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('leaf "zzzzzzzz" is not a record of');
  });

  it('writes to -o what it prints (text and --json), and refuses (exit code 2) to write over the session it reads', async () => {
    const builder = new SessionBuilder(44);
    let at = builder.turn(null, { outputScale: 0.5 });
    for (let turn = 0; turn < 30; turn++) at = builder.turn(at, { outputScale: 0.5 });
    const file = join(dir.path, 'long.jsonl');
    writeFileSync(file, builder.jsonl());
    const printed = await runBinary(['replay', file, '--full']);
    const out = join(dir.path, 'long.txt');
    const written = await runBinary(['replay', file, '--full', '-o', out]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(printed.stdout.length).toBeGreaterThan(64 * 1024);
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout);
    const json = await runBinary(['replay', file, '--json']);
    const jsonOut = join(dir.path, 'long.json');
    expect((await runBinary(['replay', file, '--json', '-o', jsonOut])).code).toBe(0);
    expect(json.stdout.length).toBeGreaterThan(64 * 1024);
    expect(readFileSync(jsonOut, 'utf8')).toBe(json.stdout);
    expect(json.stdout).toBe(`${JSON.stringify(JSON.parse(json.stdout), null, 2)}\n`);
    const refused = await runBinary(['replay', file, '-o', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to overwrite the input file');
    expect(readFileSync(file, 'utf8')).toBe(builder.jsonl());
  });

  it('reports a missing file with exit code 1', async () => {
    const run = await runBinary(['replay', join(dir.path, 'nope.jsonl')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no such file');
  });

  it('marks the real compaction boundary and shows the context view', async () => {
    const file = corpus('marot__spotter__ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl');
    const full = await runBinary(['replay', file]);
    expect(full.code).toBe(0);
    expect(full.stdout).toContain(
      FULL_CORPUS
        ? '──── compaction boundary · manual · 142,431 tokens before · line 1481 ────'
        : '──── compaction boundary · manual · 142,431 tokens before · line 1 · history before it missing ────',
    );
    const context = await runBinary(['replay', file, '--context', '--json']);
    const payload = JSON.parse(context.stdout);
    expect(payload.session.view).toBe('context');
    expect(payload.boundaries[0].messageIndex).toBe(0);
  });
});
