import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';
import { type CorpusDir, corpusFiles } from '../support/corpus.js';

const EXAMPLE = 'examples/coding-agent-session.openai.json';

describe('condense restore (built binary)', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.remove());
  const compacted = join(directory.path, 'compacted.json');

  it('restores every collapsed element: the output is the original file, byte for byte', async () => {
    const compact = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '--force', '-o', compacted]);
    expect(compact.code, compact.stderr).toBe(0);
    const restored = join(directory.path, 'restored.json');
    const run = await runBinary(['restore', compacted, '--from', EXAMPLE, '-o', restored]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/restored \d+ element\(s\) in \d+ span\(s\)/);
    expect(readFileSync(restored, 'utf8')).toBe(readFileSync(EXAMPLE, 'utf8'));
    const all = await runBinary(['restore', compacted, '--from', EXAMPLE, '--all']);
    expect(all.stdout).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('restores only the elements named with --ref, leaving a valid, still compacted transcript', async () => {
    const ref = /ref=(m\d+#[0-9a-f]{8})/.exec(readFileSync(compacted, 'utf8'))?.[1] as string;
    const run = await runBinary(['restore', compacted, '--from', EXAMPLE, '--ref', ref]);
    expect(run.code, run.stderr).toBe(0);
    const output = documentTranscripts(decodeDocument(run.stdout))[0] as Transcript;
    const before = documentTranscripts(decodeDocument(readFileSync(compacted, 'utf8')))[0] as Transcript;
    expect(output.messages.length).toBeGreaterThan(before.messages.length);
    expect(verifyTranscript(output, { provider: 'anthropic' })).toEqual([]);
  });

  it('fails on a reference the original does not have (exit 1), and on --all with --ref (exit 2)', async () => {
    const missing = await runBinary(['restore', compacted, '--from', EXAMPLE, '--ref', 'm999#00000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('unresolved: m999#00000000');
    const both = await runBinary(['restore', compacted, '--from', EXAMPLE, '--all', '--ref', 'm1']);
    expect(both.code).toBe(2);
  });

  const samples: readonly CorpusDir[] = ['claude-code', 'anthropic', 'openai', 'sharegpt'];
  for (const dir of samples) {
    it(`round-trips a ${dir} corpus file: compact, then restore all, gives the original transcripts`, async () => {
      const file = corpusFiles(dir)[0] as string;
      const out = join(directory.path, `${dir}.out`);
      const back = join(directory.path, `${dir}.back`);
      expect((await runBinary(['compact', file, '--engine', 'rules', '--force', '-o', out])).code).toBe(0);
      const run = await runBinary(['restore', out, '--from', file, '-o', back]);
      expect(run.code, run.stderr).toBe(0);
      const original = documentTranscripts(decodeDocument(readFileSync(file, 'utf8')));
      const restored = documentTranscripts(decodeDocument(readFileSync(back, 'utf8')));
      expect(
        restored.map((transcript) => transcript.messages.map((message) => [message.role, message.parts])),
      ).toEqual(
        original.map((transcript) => transcript.messages.map((message) => [message.role, message.parts])),
      );
    });
  }
});
