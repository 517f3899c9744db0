import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../src/codecs/registry.js';
import { type LoopbackProvider, loopbackReplies as reply, startLoopbackProvider } from '../../src/testing.js';
import { shareGptLine, taskOf, writeDataset } from '../batch/helpers.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { ROOT, runBinary, temporaryDirectory } from '../support/cli.js';
import { agentRun } from '../trajectory/helpers.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());
let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Small budgets so the 8-step test runs compress under the real o200k tokenizer. */
const SMALL = ['--target', '500', '--summary-target', '60'];

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

describe('condense trajectories (built binary)', () => {
  it('compresses a directory into <dir>_compressed and reports what it did', async () => {
    const data = join(tmp.path, 'runs');
    writeDataset(data, 'a.jsonl', [shareGptLine(0), shareGptLine(1, 1), shareGptLine(2)]);
    writeDataset(data, 'b.jsonl', [shareGptLine(3)]);
    const result = await runBinary(['trajectories', data, ...SMALL, '--workers', '0']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`condense: ${join(data, 'a.jsonl')}: 3 entries (sharegpt)`);
    expect(result.stderr).toMatch(/condense: compressed 3 of 4 trajectories \(1 under the target/);
    expect(result.stderr).toMatch(/tokens [\d,]+ → [\d,]+ \(saved \d+\.\d %\)/);
    const out = join(tmp.path, 'runs_compressed');
    expect(lines(join(out, 'a.jsonl')).map((line) => JSON.parse(line).conversations[1].value)).toEqual([
      taskOf(0),
      taskOf(1),
      taskOf(2),
    ]);
    const metrics = JSON.parse(readFileSync(join(out, 'compression_metrics.json'), 'utf8'));
    expect(metrics.summary.total_trajectories).toBe(4);
    expect(metrics.tokens.total_saved).toBeGreaterThan(0);
    // A second run finds both files finished.
    const again = await runBinary(['trajectories', data, ...SMALL, '--workers', '0', '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('finished by an earlier run, skipped');
    expect(JSON.parse(again.stdout).summary).toMatchObject({
      total_trajectories: 4,
      trajectories_compressed: 3,
    });
  });

  it('spreads the work over worker threads and writes the same output', async () => {
    const dir = join(tmp.path, 'threads');
    const path = writeDataset(
      dir,
      'runs.jsonl',
      Array.from({ length: 8 }, (_, index) => shareGptLine(index)),
    );
    const single = await runBinary([
      'trajectories',
      path,
      ...SMALL,
      '--workers',
      '0',
      '-o',
      join(dir, 'one'),
    ]);
    const pooled = await runBinary([
      'trajectories',
      path,
      ...SMALL,
      '--workers',
      '2',
      '-o',
      join(dir, 'two'),
    ]);
    expect([single.code, pooled.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'two', 'runs.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'one', 'runs.jsonl'), 'utf8'),
    );
  });

  it('carries an invalid line through and names its file and line', async () => {
    const dir = join(tmp.path, 'bad');
    const path = writeDataset(dir, 'runs.jsonl', [shareGptLine(0), '{"conversations": [', shareGptLine(1)]);
    const result = await runBinary(['trajectories', path, ...SMALL, '--workers', '0']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${path}:2: not valid JSON, carried through untouched`);
    expect(lines(join(dir, 'runs_compressed', 'runs.jsonl'))[1]).toBe('{"conversations": [');
  });

  it('plans without writing in a dry run', async () => {
    const dir = join(tmp.path, 'dry');
    const path = writeDataset(dir, 'runs.jsonl', [shareGptLine(0), shareGptLine(1)]);
    const result = await runBinary(['trajectories', path, ...SMALL, '--dry-run', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('dry run');
    expect(result.stderr).toMatch(/would compress 2 of 2 trajectories/);
    expect(JSON.parse(result.stdout).summary.trajectories_compressed).toBe(2);
    expect(existsSync(join(dir, 'runs_compressed'))).toBe(false);
  });

  it('applies the threat-hunt policy: the IOC turn stays, tool turns are tagged', async () => {
    const dir = join(tmp.path, 'hunt');
    const tools = ['port_scan', 'dns_lookup', 'process_list', 'log_grep'];
    const run = agentRun({
      steps: 14,
      output: 900,
      task: 'Triage this alert.',
      tool: (step) => (step === 13 ? 'isolate_host' : (tools[step % 4] as string)),
      interjections: { 3: '[IOC] 198.51.100.23 beaconing from WS-7' },
    });
    const entry = getCodec('sharegpt').encode({ messages: run.messages });
    const path = writeDataset(dir, 'hunts.jsonl', [JSON.stringify(entry)]);
    const policy = join(ROOT, 'examples', 'threat-hunt-policy.yaml');
    const result = await runBinary([
      'trajectories',
      path,
      '--config',
      policy,
      '--target',
      '2500',
      '--workers',
      '0',
    ]);
    expect(result.code).toBe(0);
    const [line] = lines(join(dir, 'hunts_compressed', 'hunts.jsonl'));
    const out = JSON.parse(line as string) as {
      conversations: { from: string; value: string }[];
      turn_annotations: { turn: number; tool: string; attack: string }[];
      compression_metrics: { compressed_tokens: number; anchors: number[] };
    };
    expect(out.conversations.some((turn) => turn.value === '[IOC] 198.51.100.23 beaconing from WS-7')).toBe(
      true,
    );
    expect(out.compression_metrics.anchors).toEqual([8]);
    expect(out.compression_metrics.compressed_tokens).toBeLessThanOrEqual(2500);
    expect(out.turn_annotations.find((note) => note.tool === 'isolate_host')?.attack).toMatch(/^M1030/);
    for (const note of out.turn_annotations) expect(out.conversations[note.turn]?.from).toBe('tool');
  });

  it('summarizes with a model, and keeps an entry that times out (exit code 1)', async () => {
    server = await startLoopbackProvider({
      script: (request) =>
        JSON.stringify(request.body).includes('E1s')
          ? { kind: 'hang' }
          : reply.text(realisticCheckpoint('model summary')),
    });
    const dir = join(tmp.path, 'model');
    const original = [shareGptLine(0), shareGptLine(1)];
    const path = writeDataset(dir, 'runs.jsonl', original);
    const result = await runBinary([
      'trajectories',
      path,
      ...SMALL,
      '--workers',
      '1',
      '--timeout',
      '2',
      '--model',
      'openai-compatible:test-model',
      '--base-url',
      `${server.url}/v1`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path}:2: timed out, kept as it was`);
    const written = lines(join(dir, 'runs_compressed', 'runs.jsonl'));
    expect(JSON.parse(written[0] as string).conversations[4].value).toBe(
      `[CONTEXT SUMMARY]: ${realisticCheckpoint('model summary')}`,
    );
    expect(written[1]).toBe(original[1]);
  });

  it('rejects wrong usage with exit code 2', async () => {
    const dir = join(tmp.path, 'usage');
    const a = writeDataset(dir, 'a.jsonl', [shareGptLine(0)]);
    const b = writeDataset(dir, 'b.jsonl', [shareGptLine(1)]);
    expect((await runBinary(['trajectories', a, '--sample-percent', '0'])).code).toBe(2);
    const several = await runBinary(['trajectories', a, b]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('several inputs need an output directory');
    writeFileSync(join(dir, 'bad.yaml'), 'compression:\n  target: 5\n');
    const config = await runBinary(['trajectories', a, '--config', join(dir, 'bad.yaml')]);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/bad\.yaml:2: compression: unknown key "target"/);
  });
});
