import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSessionFile } from '../../src/session/load-session-file.js';
import { sessionProblem } from '../../src/session/session-check.js';
import { temporaryDirectory } from '../support/cli.js';
import { SessionBuilder } from './generate-session.js';

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());

async function problemOf(name: string, text: string): Promise<string | undefined> {
  const path = join(tmp.path, name);
  writeFileSync(path, text);
  return (await sessionProblem(await loadSessionFile(path), path))?.code;
}

describe('sessionProblem', () => {
  it('accepts sessions, also those without a conversation (file snapshots only, titles only)', async () => {
    const builder = new SessionBuilder(91);
    builder.turn(null, { small: true });
    expect(await problemOf('full.jsonl', builder.jsonl())).toBeUndefined();
    const snapshot = { type: 'file-history-snapshot', messageId: 'm1', snapshot: { trackedFileBackups: {} } };
    expect(await problemOf('snapshots.jsonl', `${JSON.stringify(snapshot)}\n`)).toBeUndefined();
    const title = { type: 'summary', summary: 'Fix the build', leafUuid: 'u1' };
    expect(await problemOf('title.jsonl', `${JSON.stringify(title)}\n`)).toBeUndefined();
  });

  it('accepts Codex rollouts, which have no record uuids, also one that has no conversation yet', async () => {
    const meta = { timestamp: '2026-05-11T08:27:17.490Z', type: 'session_meta', payload: { id: 'r1' } };
    const started = {
      timestamp: '2026-05-11T08:27:17.493Z',
      type: 'event_msg',
      payload: { type: 'task_started' },
    };
    const lines = [meta, started].map((line) => JSON.stringify(line)).join('\n');
    expect(await problemOf('rollout-2026-05-11T11-26-55-r1.jsonl', `${lines}\n`)).toBeUndefined();
  });

  it('refuses empty files, transcripts, datasets and binary files', async () => {
    expect(await problemOf('empty.jsonl', '')).toBe('EMPTY_INPUT');
    expect(await problemOf('blank.jsonl', '\n\n')).toBe('EMPTY_INPUT');
    expect(
      await problemOf('chat.json', '{\n  "messages": [\n    {"role": "user", "content": "hi"}\n  ]\n}\n'),
    ).toBe('NOT_A_SESSION');
    expect(await problemOf('dataset.jsonl', '{"conversations": [{"from": "human", "value": "hi"}]}\n')).toBe(
      'NOT_A_SESSION',
    );
    expect(await problemOf('typed.jsonl', '{"type": "chat", "text": "hi"}\n')).toBe('NOT_A_SESSION');
    expect(await problemOf('binary.jsonl', '\u0000\u0001\u0002\n')).toBe('NOT_A_SESSION');
  });
});
