import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runBinary, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');

describe('condense restore against an original that no longer holds the references', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());

  it('fails without writing (UNRESOLVED_REFERENCE), and writes only with --allow-unresolved', async () => {
    const compacted = join(dir.path, 'compacted.json');
    const compact = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '--force', '-o', compacted]);
    expect(compact.code, compact.stderr).toBe(0);
    const edited = join(dir.path, 'edited.json');
    const original = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
      messages: { role: string; content: string }[];
    };
    for (const message of original.messages) if (message.role === 'tool') message.content += ' (edited)';
    writeFileSync(edited, JSON.stringify(original, null, 2));
    const out = join(dir.path, 'restored.json');

    const refused = await runBinary(['restore', compacted, '--from', edited, '-o', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /condense: error UNRESOLVED_REFERENCE: .*edited\.json: \d+ reference\(s\) are not in this original \(unresolved: m\d+#[0-9a-f]{8}/,
    );
    expect(refused.stderr).toContain('nothing was written');
    expect(existsSync(out)).toBe(false);
    const toStdout = await runBinary(['restore', compacted, '--from', edited]);
    expect(toStdout.code).toBe(1);
    expect(toStdout.stdout).toBe('');

    const allowed = await runBinary([
      'restore',
      compacted,
      '--from',
      edited,
      '--allow-unresolved',
      '-o',
      out,
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/warning: unresolved: m\d+#/);
    expect(existsSync(out)).toBe(true);
  });
});
