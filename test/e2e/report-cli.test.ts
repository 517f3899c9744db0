import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getCodec } from '../../src/codecs/registry.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import { ROOT, runBinary, temporaryDirectory } from '../support/cli.js';

const EXAMPLE = join(ROOT, 'examples', 'coding-agent-session.openai.json');
const CONFIG = join(ROOT, 'examples', 'compaction.yaml');

describe('condense report (built binary)', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.remove());

  it('writes <name>.report.html in the current directory, leaves the input alone, and prints the figures', async () => {
    const input = join(directory.path, 'session.json');
    writeFileSync(input, readFileSync(EXAMPLE));
    const before = readFileSync(input, 'utf8');
    const run = await runBinary(['report', 'session.json'], { cwd: directory.path });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(readFileSync(input, 'utf8')).toBe(before);
    const html = readFileSync(join(directory.path, 'session.report.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('Content-Security-Policy');
    expect(html).toContain('data-outcome="progress"');
    expect(html.match(/data-side="before"/g)).toHaveLength(89);
    expect(run.stderr).toMatch(
      /^condense: wrote session\.report\.html: 1 transcript; 89 → \d+ messages, ~[\d,]+ → ~[\d,]+ tokens \(-\d+\.\d %\)\n$/,
    );
  });

  it('prints the page with -o -, and respects the threshold with --no-force', async () => {
    const run = await runBinary(['report', EXAMPLE, '-o', '-', '--no-force']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(run.stdout).toContain('data-outcome="noop"');
    expect(run.stdout).toContain('below the threshold');
    expect(run.stderr).toMatch(/wrote standard output: 1 transcript, 1 not compacted/);
  });

  it('uses the rules engine with --config and writes to -o', async () => {
    const out = join(directory.path, 'rules.html');
    const run = await runBinary(['report', EXAMPLE, '--engine', 'rules', '--config', CONFIG, '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<td>rules</td>');
    expect(html).toContain('data-status="collapsed"');
    expect(html).toMatch(/tool pairs collapsed/);
  });

  it('compacts and shows only the first 20 transcripts of a large dataset, and says how many it left out', async () => {
    const dataset = join(directory.path, 'dataset.jsonl');
    const lines = Array.from({ length: 25 }, (_, index) =>
      JSON.stringify(
        getCodec('sharegpt').encode(
          buildCodingSession({ steps: 8, task: `Fix the handler tests, run ${index}.` }),
        ),
      ),
    );
    writeFileSync(dataset, `${lines.join('\n')}\n`);
    const run = await runBinary(['report', dataset, '-o', '-']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('5 more transcripts were left out of this page (it shows the first 20)');
    expect(run.stdout).toContain('run 19.');
    expect(run.stdout).not.toContain('run 20.');
    expect(run.stderr).toMatch(/^condense: wrote standard output: 20 transcripts.*\(the first 20 of 25\)\n$/);
  });

  it('exits 1 naming the file when the input is not a transcript, and writes nothing', async () => {
    const bad = join(directory.path, 'notes.json');
    writeFileSync(bad, '{"hello": "world"}');
    const run = await runBinary(['report', 'notes.json'], { cwd: directory.path });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('notes.json');
    expect(existsSync(join(directory.path, 'notes.report.html'))).toBe(false);
    const missing = await runBinary(['report', 'absent.json'], { cwd: directory.path });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('absent.json');
  });

  it('exits 2 on usage errors: a model flag with the rules engine, or -o onto the input', async () => {
    const misplaced = await runBinary(['report', EXAMPLE, '--engine', 'rules', '--model', 'openai:gpt-4o']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toMatch(/--model does not apply to the rules engine/);
    const overwrite = await runBinary(['report', EXAMPLE, '-o', EXAMPLE]);
    expect(overwrite.code).toBe(2);
    expect(overwrite.stderr).toMatch(/refusing to overwrite the input file/);
  });
});
