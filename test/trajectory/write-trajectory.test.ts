import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeDocument } from '../../src/codecs/registry.js';
import { writeTrajectory } from '../../src/io/write-trajectory.js';
import { temporaryDirectory } from '../support/cli.js';
import { agentRun } from './helpers.js';

describe('writeTrajectory', () => {
  const dir = temporaryDirectory();
  afterAll(() => dir.remove());

  it('appends completed and failed runs to their own files, non-ASCII kept as is', async () => {
    const now = () => Date.UTC(2025, 0, 2, 3, 4, 5);
    const turns = [
      { from: 'system', value: 'Agent.' },
      { from: 'human', value: 'Résumé — 日本語 ✓' },
      { from: 'gpt', value: '<REASONING_SCRATCHPAD>plan</REASONING_SCRATCHPAD>ok' },
    ];
    const first = await writeTrajectory(
      { conversations: turns, model: 'm1', completed: true },
      { dir: dir.path, now },
    );
    await writeTrajectory(
      { conversations: turns, model: 'm1', completed: true, timestamp: 'T' },
      { dir: dir.path },
    );
    const failed = await writeTrajectory(
      { conversations: turns, model: 'm2', completed: false },
      { dir: dir.path, now },
    );
    expect(first).toEqual({ ok: true, path: join(dir.path, 'trajectory_samples.jsonl') });
    expect(failed).toEqual({ ok: true, path: join(dir.path, 'failed_trajectories.jsonl') });
    const lines = readFileSync(join(dir.path, 'trajectory_samples.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('Résumé — 日本語 ✓');
    expect(lines[0]).not.toContain('\\u');
    const entry = JSON.parse(lines[0] as string);
    expect(Object.keys(entry)).toEqual(['conversations', 'timestamp', 'model', 'completed']);
    expect(entry.timestamp).toBe('2025-01-02T03:04:05.000Z');
    expect(entry.conversations[2].value).toBe('<think>plan</think>ok');
    expect(JSON.parse(lines[1] as string).timestamp).toBe('T');
    expect(decodeDocument(readFileSync(join(dir.path, 'trajectory_samples.jsonl'), 'utf8')).format).toBe(
      'sharegpt',
    );
  });

  it('encodes a transcript as Hermes turns', async () => {
    const result = await writeTrajectory(
      { conversations: agentRun({ steps: 2 }), model: 'm', completed: true },
      { dir: join(dir.path, 'sub') },
    );
    expect(result.ok).toBe(true);
    const entry = JSON.parse(readFileSync(result.path, 'utf8'));
    expect(entry.conversations.map((turn: { from: string }) => turn.from)).toEqual([
      'system',
      'human',
      'gpt',
      'tool',
      'gpt',
      'tool',
      'gpt',
    ]);
    expect(entry.conversations[2].value).toContain('<tool_call>');
  });

  it('never throws when the file cannot be written, and reports it', async () => {
    // The file name points into a directory that does not exist (works even when tests run as root).
    const seen: string[] = [];
    const result = await writeTrajectory(
      { conversations: [], model: 'm', completed: true },
      {
        dir: dir.path,
        completedFile: 'x/y.jsonl',
        onError: (error, path) => seen.push(`${path}: ${error.message}`),
      },
    );
    expect(result.ok).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('x/y.jsonl');
  });
});
