import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';
import { corpusFiles, FULL_CORPUS } from '../support/corpus.js';

const EXAMPLE = 'examples/coding-agent-session.openai.json';
const CONFIG = 'examples/compaction.yaml';

describe('condense compact --engine rules (built binary)', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.remove());

  it('compacts with the example configuration, valid for OpenAI and Anthropic, and says what each rule did', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '--config', CONFIG, '--force']);
    expect(run.code, run.stderr).toBe(0);
    const output = documentTranscripts(decodeDocument(run.stdout, { format: 'openai' }))[0] as Transcript;
    expect(verifyTranscript(output, { provider: 'openai' })).toEqual([]);
    expect(verifyTranscript(output, { provider: 'anthropic' })).toEqual([]);
    expect(run.stdout).toMatch(
      /\[tool: bash `git status --short && git log --oneline -6` → .* · ref=m\d+#[0-9a-f]{8}\]/,
    );
    expect(run.stderr).toMatch(/Compacted: 89 → \d+ messages/);
    expect(run.stderr).toMatch(/rules: \d+ tool pair\(s\) collapsed, \d+ output\(s\) truncated/);
    expect(run.stderr).toMatch(/2 leading messages left byte-identical/);
  });

  it('prints the report with per-rule counts and the unchanged prefix with --json, and notes an unreachable target', async () => {
    const run = await runBinary([
      'compact',
      EXAMPLE,
      '--engine',
      'rules',
      '--context-length',
      '8000',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as {
      report: {
        engine: string;
        madeProgress: boolean;
        unchangedPrefix: number;
        rules: { collapsedPairs: number };
        notes: string[];
      };
    };
    expect(body.report.engine).toBe('rules');
    expect(body.report.madeProgress).toBe(true);
    expect(body.report.unchangedPrefix).toBe(2);
    expect(body.report.rules.collapsedPairs).toBeGreaterThan(10);
    expect(body.report.notes.join(' ')).toMatch(/above the target of 4,800 tokens/);
    expect(run.stderr).toMatch(/strict preset/);
  });

  it('exits 1 past the window and names the compressor engine as the way out', async () => {
    const out = join(directory.path, 'over-window.json');
    const run = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '-c', '4000', '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/BUDGET_UNREACHABLE: .*use --engine compressor/);
    expect(run.stderr).not.toMatch(/strict preset/);
  });

  it('takes --threshold as the trigger share, and leaves a small transcript alone without --force', async () => {
    const run = await runBinary(['compact', EXAMPLE, '--engine', 'rules']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(readFileSync(EXAMPLE, 'utf8')));
    expect(run.stderr).toMatch(/below the threshold \(\d+ < 76800 tokens\)/);
    const low = await runBinary([
      'compact',
      EXAMPLE,
      '--engine',
      'rules',
      '--context-length',
      '20000',
      '--threshold',
      '0.5',
    ]);
    expect(low.stderr).toMatch(/Compacted: 89 →/);
  });

  it('rejects a configuration with an unknown key, naming the key, the file and the line (exit 2)', async () => {
    const config = join(directory.path, 'bad.yaml');
    writeFileSync(config, 'compaction:\n  enabled: true\n  max_tool_output: 300\n');
    const run = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${config}:3`);
    expect(run.stderr).toContain('unknown key "compaction.max_tool_output"');
    expect(run.stderr).toContain('did you mean "max_tool_output_chars"');
  });

  it('refuses flags of the other engine (exit 2)', async () => {
    const config = await runBinary(['compact', EXAMPLE, '--config', CONFIG]);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/--config does not apply to the compressor engine/);
    const model = await runBinary(['compact', EXAMPLE, '--engine', 'rules', '--model', 'openai:gpt-4o-mini']);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model does not apply to the rules engine/);
  });

  // The sample's excerpt of this session is too short to condense.
  it.skipIf(!FULL_CORPUS)('compacts a Claude Code session in its own format', async () => {
    const file = corpusFiles('claude-code').find((path) => path.includes('7acd37a8')) as string;
    const out = join(directory.path, 'cc.jsonl');
    const run = await runBinary(['compact', file, '--engine', 'rules', '--force', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const document = decodeDocument(readFileSync(out, 'utf8'));
    expect(document.format).toBe('claude-code');
    expect(readFileSync(out, 'utf8')).toContain('[condensed: ');
  });
});
