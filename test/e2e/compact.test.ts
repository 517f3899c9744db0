import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { compactWire } from '../../src/engines/compressor/compact-wire.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { type LoopbackProvider, loopbackReplies, startLoopbackProvider } from '../../src/testing.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';
import { corpusFiles } from '../support/corpus.js';

const EXAMPLE = 'examples/coding-agent-session.openai.json';

describe('condense compact (built binary)', () => {
  let server: LoopbackProvider;
  beforeAll(async () => {
    server = await startLoopbackProvider({
      script: () => loopbackReplies.text(realisticCheckpoint('finish the commit')),
    });
  });
  afterAll(() => server.close());

  it('runs the README quick start with no key and no network', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--force'], {
      env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    });
    expect(run.code, run.stderr).toBe(0);
    const [output] = documentTranscripts(decodeDocument(run.stdout, { format: 'openai' }));
    expect(output).toBeDefined();
    expect(verifyTranscript(output as never, { provider: 'openai' })).toEqual([]);
    expect(run.stderr).toMatch(/Compacted: 89 → \d+ messages/);
    expect(run.stderr).toMatch(/Request size: ~[\d,]+ → ~[\d,]+ tokens/);
    expect(run.stderr).toMatch(/checkpoint: extractive/);
  });

  it('leaves a transcript under the threshold alone without --force and says why', async () => {
    const run = await runBinary(['compact', EXAMPLE]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(EXAMPLE, 'utf8')));
    expect(run.stderr).toMatch(/below the threshold/);
  });

  it('compacts above the threshold of a small context window without --force', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--context-length', '12000', '--json']);
    const body = JSON.parse(run.stdout) as { report: { madeProgress: boolean; summary: { source: string } } };
    expect(body.report.madeProgress).toBe(true);
  });

  it('writes the same format to -o, atomically, and prints { report, transcript } with --json', async () => {
    const directory = temporaryDirectory();
    try {
      const file = corpusFiles('anthropic')[0] as string;
      const out = `${directory.path}/compacted.json`;
      const run = await runBinary(['compact', file, '--force', '-o', out]);
      expect(run.code, run.stderr).toBe(0);
      const document = decodeDocument(readFileSync(out, 'utf8'));
      expect(document.format).toBe('anthropic');
      expect(verifyTranscript(documentTranscripts(document)[0] as never, { provider: 'anthropic' })).toEqual(
        [],
      );
      const json = await runBinary(['compact', file, '--force', '--json']);
      const body = JSON.parse(json.stdout) as {
        report: { engine: string };
        transcript: { messages: unknown[] };
      };
      expect(body.report.engine).toBe('compressor');
      expect(body.transcript.messages.length).toBeGreaterThan(0);
    } finally {
      directory.remove();
    }
  });

  it('uses a model through --model and --base-url, and reports it', async () => {
    const before = server.requests.length;
    const run = await runBinary([
      'compact',
      EXAMPLE,
      '--force',
      '--model',
      'openai-compatible:local',
      '--base-url',
      `${server.url}/v1`,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).report.summary.source).toBe('model');
    expect(server.requests.length).toBeGreaterThan(before);
  });

  it('explains a missing key instead of failing later', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--force', '--model', 'anthropic:claude-haiku-4-5'], {
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ANTHROPIC_API_KEY/);
  });

  it('keeps a Claude Code session a Claude Code session', async () => {
    const file = corpusFiles('claude-code').find((name) =>
      name.includes('ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'),
    ) as string;
    const run = await runBinary(['compact', file, '--force']);
    expect(run.code, run.stderr).toBe(0);
    const document = decodeDocument(run.stdout);
    expect(document.format).toBe('claude-code');
  });
});

describe('compactWire', () => {
  it('returns the same wire format it was given', async () => {
    const wire = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { messages: unknown[] };
    const { wire: out, report } = await compactWire(wire, 'openai', { contextLength: 16_000 });
    expect(Array.isArray(out.messages)).toBe(true);
    expect(out.messages.length).toBe(report.messagesAfter);
    expect(out.messages[0]).toEqual(wire.messages[0]);
  });
});
