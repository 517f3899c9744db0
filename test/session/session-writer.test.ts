import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import type { Message } from '../../src/model/message.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { SESSION_SCHEMA } from '../../src/session/line-schema.js';
import { loadSession } from '../../src/session/load-session.js';
import { openSessionWriter } from '../../src/session/open-session-writer.js';
import {
  type SessionSink,
  SessionWriter,
  type SessionWriterOptions,
} from '../../src/session/session-writer.js';
import { temporaryDirectory } from '../support/cli.js';
import { comparable } from './helpers.js';

class MemorySink implements SessionSink {
  chunks: Uint8Array[] = [];
  syncs = 0;
  closed = false;
  async append(data: Uint8Array): Promise<void> {
    this.chunks.push(data);
  }
  async sync(): Promise<void> {
    this.syncs++;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
  lines(): Record<string, unknown>[] {
    return Buffer.from(this.bytes())
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

function deterministic(extra: SessionWriterOptions = {}): SessionWriterOptions {
  let id = 0;
  let tick = Date.UTC(2026, 1, 1);
  return {
    sessionId: 'session-1',
    newId: () => `id-${++id}`,
    now: () => {
      tick += 1000;
      return new Date(tick);
    },
    ...extra,
  };
}

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const assistantCall = (id: string): Message => ({
  role: 'assistant',
  parts: [{ type: 'tool-call', id, name: 'Bash', arguments: '{"command":"ls"}' }],
});
const toolResult = (id: string, text = 'a.txt'): Message => ({
  role: 'tool',
  parts: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text }] }],
});
const answer = (text: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text }] });

describe('SessionWriter', () => {
  it('writes one self-describing, versioned object per line, messages chained, and flushes every append', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic());
    await writer.appendMessages([
      user('list files'),
      assistantCall('c1'),
      toolResult('c1'),
      answer('one file'),
    ]);
    await writer.close();
    const lines = sink.lines();
    expect(lines.every((line) => line['schema'] === SESSION_SCHEMA)).toBe(true);
    expect(lines.map((line) => line['type'])).toEqual([
      'session',
      'message',
      'message',
      'message',
      'message',
    ]);
    expect(Object.keys(lines[1] as object)).toEqual([
      'schema',
      'type',
      'uuid',
      'parentUuid',
      'timestamp',
      'message',
    ]);
    expect(lines.slice(1).map((line) => line['parentUuid'])).toEqual([null, 'id-1', 'id-2', 'id-3']);
    expect(lines[0]).toMatchObject({ sessionId: 'session-1', timestamp: '2026-02-01T00:00:01.000Z' });
    expect(sink.syncs).toBe(4);
    expect(sink.closed).toBe(true);
  });

  it('loads back through the same chain logic, with the pre-filter', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic());
    const messages = [user('list files'), assistantCall('c1'), toolResult('c1'), answer('one file')];
    await writer.appendMessages(messages);
    await writer.setTitle('Listing files');
    await writer.close();
    const session = loadSession(sink.bytes());
    expect(session.format).toBe('condense');
    expect(session.stats.prefilter).toBe('used');
    expect(session.sessionId).toBe('session-1');
    expect(session.title).toBe('Listing files');
    expect(
      session.transcript.messages.map((message) => ({ role: message.role, parts: message.parts })),
    ).toEqual(messages);
    expect(comparable(session)).toEqual(comparable(loadSession(sink.bytes(), { prefilter: false })));
  });

  it('never writes progress ticks, drops attachments unless the policy keeps them, and counts both', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(
      sink,
      deterministic({ attachments: (value) => JSON.stringify(value).includes('keep') }),
    );
    await writer.appendMessage(user('hi'));
    writer.recordProgress();
    writer.recordProgress();
    expect(await writer.appendAttachment({ hook: 'drop me' })).toBe(false);
    expect(await writer.appendAttachment({ hook: 'keep me' })).toBe(true);
    await writer.close();
    expect(sink.lines().map((line) => line['type'])).toEqual(['session', 'message', 'attachment']);
    expect(sink.lines()[2]).toMatchObject({ messageUuid: 'id-1', attachment: { hook: 'keep me' } });
    expect(writer.stats).toMatchObject({ droppedProgress: 2, droppedAttachments: 1, attachments: 1 });
    expect(loadSession(sink.bytes()).transcript.messages).toHaveLength(1);
  });

  it('replaces image payloads by a placeholder when asked, in messages and tool results', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic({ images: 'placeholder' }));
    const image = {
      type: 'image' as const,
      source: { kind: 'base64' as const, data: 'A'.repeat(4000), mediaType: 'image/png' },
    };
    await writer.appendMessage({ role: 'user', parts: [{ type: 'text', text: 'look' }, image] });
    await writer.appendMessage(assistantCall('c1'));
    await writer.appendMessage({
      role: 'tool',
      parts: [{ type: 'tool-result', callId: 'c1', content: [image] }],
    });
    await writer.close();
    const text = Buffer.from(sink.bytes()).toString('utf8');
    expect(text).not.toContain('AAAA');
    expect(text).toContain('[image omitted: image/png, 3.0 KB]');
    expect(writer.stats.imagesReplaced).toBe(2);
  });

  it('drops wire metadata unless asked, and never writes origins', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic());
    await writer.appendMessage({
      role: 'user',
      parts: [{ type: 'text', text: 'hi', meta: { 'claude-code': { extra: { x: 1 } } } }],
      meta: {
        origin: { format: 'claude-code', wire: { parentUuid: 'p', isSidechain: false }, parts: [] },
        codec: { 'claude-code': { records: [] } },
        condense: { checkpoint: false },
      },
    });
    await writer.close();
    const message = sink.lines()[1]?.['message'];
    expect(message).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'hi' }],
      meta: { condense: { checkpoint: false } },
    });
  });

  it('writes a compaction boundary naming the preserved head and tail, which replay splices around the checkpoint', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic());
    const [system, first, , , , last] = await writer.appendMessages([
      { role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
      user('task'),
      assistantCall('c1'),
      toolResult('c1', 'x'.repeat(5000)),
      answer('done step 1'),
      user('next step'),
    ]);
    const { boundaryUuid, checkpointUuid } = await writer.appendCompaction({
      checkpoint: {
        role: 'user',
        parts: [{ type: 'text', text: '[summary of the middle]' }],
        meta: { condense: { checkpoint: true } },
      },
      head: [system as string, first as string],
      tail: [last as string],
      metadata: { trigger: 'auto', preTokens: 12000 },
    });
    await writer.appendMessage(answer('working on next step'));
    await writer.close();
    const boundary = sink.lines().find((line) => line['type'] === 'compaction');
    expect(boundary).toMatchObject({
      uuid: boundaryUuid,
      parentUuid: null,
      logicalParentUuid: last,
      anchorUuid: checkpointUuid,
      preserved: { head: [system, first], tail: [last] },
      metadata: { trigger: 'auto', preTokens: 12000 },
    });
    const context = loadSession(sink.bytes(), { view: 'context' });
    const said = context.transcript.messages.map((message) =>
      message.parts[0]?.type === 'text' ? message.parts[0].text : '',
    );
    expect(said).toEqual([
      'You are terse.',
      'task',
      '[summary of the middle]',
      'next step',
      'working on next step',
    ]);
    expect(comparable(context)).toEqual(
      comparable(loadSession(sink.bytes(), { view: 'context', prefilter: false })),
    );
    const full = loadSession(sink.bytes());
    expect(full.transcript.messages).toHaveLength(8);
    expect(full.boundaries[0]).toMatchObject({
      link: 'crossed',
      kind: 'compaction',
      trigger: 'auto',
      preTokens: 12000,
      messageIndex: 6,
    });
    expect(verifyTranscript(full.transcript)).toEqual([]);
  });

  it('refuses a compaction naming messages the log does not hold', async () => {
    const writer = new SessionWriter(new MemorySink(), deterministic());
    await writer.appendMessage(user('hi'));
    await expect(writer.appendCompaction({ checkpoint: user('summary'), head: ['nope'] })).rejects.toSatisfy(
      (error: unknown) => isCondenseError(error) && error.code === 'INVALID_OPTIONS',
    );
  });

  it('branches from an earlier message when told, leaving a dead branch', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic());
    const [first] = await writer.appendMessages([user('a'), answer('b'), user('c')]);
    await writer.appendMessage(answer('retry'), { parentUuid: first as string });
    await writer.close();
    const session = loadSession(sink.bytes());
    expect(session.transcript.messages).toHaveLength(2);
    expect(session.deadBranches).toMatchObject({ count: 1, branches: [{ forkUuid: first, messages: 2 }] });
  });

  it('keeps the order of concurrent appends', async () => {
    const sink = new MemorySink();
    const writer = new SessionWriter(sink, deterministic({ durability: 'on-close' }));
    await Promise.all([
      writer.appendMessage(user('1')),
      writer.appendMessage(answer('2')),
      writer.appendMessage(user('3')),
    ]);
    await writer.close();
    expect(
      sink
        .lines()
        .slice(1)
        .map((line) => line['uuid']),
    ).toEqual(['id-1', 'id-2', 'id-3']);
    expect(sink.syncs).toBe(1);
  });
});

describe('openSessionWriter', () => {
  const dirs: { remove: () => void }[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('continues an existing log from its leaf, after a torn last line', async () => {
    const dir = temporaryDirectory();
    dirs.push(dir);
    const path = join(dir.path, 'log.jsonl');
    const first = await openSessionWriter(path, deterministic());
    await first.appendMessages([user('a'), answer('b')]);
    await first.close();
    appendFileSync(path, '{"schema":"condense.session/1","type":"message","uuid":"torn');
    let id = 100;
    const second = await openSessionWriter(path, { newId: () => `id-${++id}` });
    expect(second.sessionId).toBe('session-1');
    expect(second.leafUuid).toBe('id-2');
    await second.appendMessage(user('c'));
    await second.close();
    const session = loadSession(readFileSync(path));
    expect(session.transcript.messages.map((message) => message.id)).toEqual(['id-1', 'id-2', 'id-101']);
    expect(session.issues.map((issue) => issue.code)).toEqual(['invalid-json']);
  });

  it('refuses to append to a file that is not a condense log', async () => {
    const dir = temporaryDirectory();
    dirs.push(dir);
    const path = join(dir.path, 'claude.jsonl');
    writeFileSync(path, '{"type":"summary","summary":"x","leafUuid":"y"}\n');
    await expect(openSessionWriter(path)).rejects.toSatisfy(
      (error: unknown) => isCondenseError(error) && error.code === 'SESSION_INVALID',
    );
  });
});
