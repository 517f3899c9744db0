import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { SessionBuilder } from '../session/generate-session.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';

describe('condense export (built binary)', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());
  const project = join(dir.path, 'project');

  function writeProject(): string[] {
    const ids: string[] = [];
    mkdirSync(project, { recursive: true });
    for (const seed of [61, 62, 63]) {
      const builder = new SessionBuilder(seed);
      const tip = builder.turn(null, { small: true, parallelShare: 1, continueFromFirst: true });
      builder.prompt(tip, seed === 62 ? 'my key is ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok' : 'thanks');
      writeFileSync(join(project, `${builder.sessionId}.jsonl`), builder.jsonl());
      ids.push(builder.sessionId);
    }
    writeFileSync(join(project, 'empty.jsonl'), '');
    return ids;
  }

  it('turns a directory of sessions into one JSONL per format, loadable by the codecs', async () => {
    writeProject();
    for (const to of ['sharegpt', 'openai', 'anthropic']) {
      const out = join(dir.path, `${to}.jsonl`);
      const run = await runBinary(['export', project, '--to', to, '-o', out]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        `exported 3 session(s) as ${to}; skipped 1 file(s) that are not session logs`,
      );
      const text = readFileSync(out, 'utf8');
      expect(text.trimEnd().split('\n')).toHaveLength(3);
      expect(text).not.toMatch(/"(parentUuid|isSidechain|toolUseResult)"/);
      const document = decodeDocument(text);
      expect(document.format).toBe(to);
      expect(documentTranscripts(document)).toHaveLength(3);
    }
  });

  it('masks secrets with --redact and writes to standard output without -o', async () => {
    writeProject();
    const plain = await runBinary(['export', project, '--to', 'openai']);
    expect(plain.stdout).toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    const redacted = await runBinary(['export', project, '--to', 'openai', '--redact']);
    expect(redacted.code).toBe(0);
    expect(redacted.stdout).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(redacted.stderr).toMatch(/masked [1-9]\d* secret/);
  });

  it('refuses an unknown format with exit code 2', async () => {
    const run = await runBinary(['export', project, '--to', 'yaml']);
    expect(run.code).toBe(2);
  });
});
