import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { htpasswdRule } from '../../src/redact/rules/commands.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';

// A line whose redaction throws, as a regex that overflowed V8's stack on megabytes did: one rule is made to
// throw on a marker, so the test does not depend on any real input still throwing. The rule object is shared
// by every redactor (and files share modules here), so it is spied on and restored, not mocked as a module.
const BOOM = 'htpasswd BOOM-REDACTION-FAILS-HERE';
const find = htpasswdRule.find.bind(htpasswdRule);
const spy = vi.spyOn(htpasswdRule, 'find').mockImplementation((text, out, scope) => {
  if (text.includes(BOOM)) throw new RangeError('Maximum call stack size exceeded');
  find(text, out, scope);
});
afterAll(() => spy.mockRestore());

const SECRET = 'sk-proj-Zq8XKv3mT9bLwR2yN5hJ7cF4dG6aS1eU0iOpQrStUvWx';

function line(text: string): string {
  return JSON.stringify({ messages: [{ role: 'user', content: text }] });
}

const dir = temporaryDirectory();
afterAll(() => dir.remove());

describe('condense redact, a line whose redaction throws', () => {
  const input = [
    line(`first: key ${SECRET}`),
    line(`second ${BOOM} with ${SECRET}`),
    line(`third: key ${SECRET}`),
  ].join('\n');

  it('leaves that line out, redacts the others, names the line and exits non-zero', async () => {
    const file = join(dir.path, 'in.jsonl');
    const out = join(dir.path, 'out.jsonl');
    writeFileSync(file, `${input}\n`);
    const run = await runInProcess(['redact', file, '--out', out], { cwd: dir.path });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error REDACT_FAILED: ${file}:2: could not redact this line`);
    expect(run.stderr).toContain('Maximum call stack size exceeded');
    expect(run.stderr).not.toContain('IO_FAILED');
    const written = readFileSync(out, 'utf8');
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(BOOM);
    expect(written).toContain('first');
    expect(written).toContain('third');
    expect(written.trim().split('\n')).toHaveLength(2);
  });

  it('does the same on standard output, and lists the line in --json', async () => {
    const file = join(dir.path, 'in2.jsonl');
    writeFileSync(file, `${input}\n`);
    const plain = await runInProcess(['redact', file], { cwd: dir.path });
    expect(plain.code).toBe(1);
    expect(plain.stdout).not.toContain(SECRET);
    expect(plain.stdout).not.toContain(BOOM);
    expect(plain.stdout.trim().split('\n')).toHaveLength(2);
    const json = await runInProcess(['redact', file, '--json'], { cwd: dir.path });
    expect(json.code).toBe(1);
    const payload = JSON.parse(json.stdout) as { failedLines: { line: number; message: string }[] };
    expect(payload.failedLines).toEqual([{ line: 2, message: 'Maximum call stack size exceeded' }]);
  });

  it('reports a failure of a whole-document redaction as an internal error, not a write failure', async () => {
    const file = join(dir.path, 'whole.json');
    const out = join(dir.path, 'whole-out.json');
    writeFileSync(file, JSON.stringify({ messages: [{ role: 'user', content: `x ${BOOM}` }] }));
    const run = await runInProcess(['redact', file, '--out', out], { cwd: dir.path });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('IO_FAILED');
    expect(run.stderr).toContain('Maximum call stack size exceeded');
  });
});
