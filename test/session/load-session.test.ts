import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { loadSession } from '../../src/session/load-session.js';
import { SessionBuilder, spacedJson } from './generate-session.js';
import { comparable, jsonl } from './helpers.js';

function both(bytes: Uint8Array, options: Parameters<typeof loadSession>[1] = {}) {
  const fast = loadSession(bytes, options);
  const slow = loadSession(bytes, { ...options, prefilter: false });
  expect(comparable(fast)).toEqual(comparable(slow));
  return fast;
}

function textOf(session: ReturnType<typeof loadSession>): string[] {
  return session.transcript.messages.map((message) =>
    message.parts.map((part) => (part.type === 'text' ? part.text : part.type)).join(' '),
  );
}

function codes(session: ReturnType<typeof loadSession>): string[] {
  return session.issues.map((issue) => issue.code);
}

describe('loadSession: what real files contain', () => {
  it('loads a 0-byte file as an empty session and says so', () => {
    const session = both(new Uint8Array());
    expect(session.transcript.messages).toEqual([]);
    expect(session.leaf).toBeUndefined();
    expect(codes(session)).toEqual(['empty-session']);
  });

  it('loads a file holding only titles, keeping them as side data', () => {
    const leaf = 'aaaaaaaa-0000-4000-8000-000000000001';
    const session = both(jsonl([{ type: 'summary', summary: 'Fix the parser', leafUuid: leaf }]));
    expect(session.transcript.messages).toEqual([]);
    expect(session.titles).toEqual([{ title: 'Fix the parser', leafUuid: leaf, line: 1, source: 'summary' }]);
    expect(session.title).toBeUndefined();
    expect(codes(session)).toEqual(['no-messages']);
  });

  it('reads a truncated last line as cut short and keeps everything before it', () => {
    const builder = new SessionBuilder(1);
    builder.turn(null, { small: true, outputScale: 0.01 });
    const text = builder.jsonl();
    const cut = Buffer.from(`${text}{"parentUuid":"x","isSidechain":false,"type":"user","mess`);
    const session = both(cut);
    expect(session.transcript.messages.length).toBeGreaterThan(1);
    expect(session.issues.find((issue) => issue.code === 'truncated-line')?.line).toBe(
      builder.records.length + 1,
    );
  });

  it('ignores unknown record types and reports them once', () => {
    const builder = new SessionBuilder(2);
    const tip = builder.turn(null, { small: true, outputScale: 0.01 });
    builder.sideRecord('unknown', tip);
    builder.sideRecord('unknown', tip);
    const session = both(Buffer.from(builder.jsonl()));
    const unknown = session.issues.filter((issue) => issue.code === 'unknown-record');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.message).toContain('future-record ×2');
    expect(verifyTranscript(session.transcript)).toEqual([]);
  });

  it('reads CRLF line endings, a byte-order mark and blank lines', () => {
    const builder = new SessionBuilder(3);
    builder.turn(null, { small: true, outputScale: 0.01 });
    const text = `\ufeff${builder.jsonl().replaceAll('\n', '\r\n\r\n')}`;
    const session = both(Buffer.from(text));
    expect(session.stats.prefilter).toBe('used');
    expect(verifyTranscript(session.transcript)).toEqual([]);
    expect(session.leaf?.line).toBe(builder.records.length * 2 - 1);
  });

  it('reads JSON written with spaces after separators without giving up the pre-filter', () => {
    const builder = new SessionBuilder(4);
    builder.turn(null, { small: true, outputScale: 0.01 });
    const session = both(Buffer.from(builder.jsonl({ spaced: true })));
    expect(session.stats.prefilter).toBe('used');
    expect(session.transcript.messages.length).toBeGreaterThan(2);
    expect(spacedJson({ a: [1, { b: 'c' }] })).toBe('{"a": [1, {"b": "c"}]}');
  });
});

describe('loadSession: choosing the leaf', () => {
  function rewound() {
    const builder = new SessionBuilder(5);
    const first = builder.turn(null, { small: true, outputScale: 0.01 });
    const abandoned = builder.turn(first, { small: true, outputScale: 0.01 });
    const kept = builder.turn(first, { small: true, outputScale: 0.01 });
    return { builder, first, abandoned, kept };
  }

  it('takes the newest user/assistant record and reports the rewound branch as dead, with its fork', () => {
    const { builder, first, abandoned, kept } = rewound();
    const session = both(Buffer.from(builder.jsonl()));
    expect(session.leaf).toMatchObject({ uuid: kept, reason: 'newest-message' });
    expect(session.chain.map((record) => record.uuid)).not.toContain(abandoned);
    expect(session.deadBranches.count).toBe(1);
    const branch = session.deadBranches.branches[0];
    expect(branch?.forkUuid).toBe(first);
    expect(branch?.forkLine).toBe(builder.records.findIndex((record) => record['uuid'] === first) + 1);
    expect(branch?.leafUuid).toBe(abandoned);
  });

  it('follows another branch when asked by uuid prefix', () => {
    const { builder, abandoned } = rewound();
    const session = both(Buffer.from(builder.jsonl()), { leaf: abandoned.slice(0, 8) });
    expect(session.leaf).toMatchObject({ uuid: abandoned, reason: 'option' });
    expect(session.deadBranches.count).toBe(1);
  });

  it('refuses a leaf that names no record, with a hint', () => {
    const { builder } = rewound();
    try {
      loadSession(Buffer.from(builder.jsonl()), { leaf: 'ffffffff-nope', fileName: 's.jsonl' });
      expect.unreachable();
    } catch (error) {
      expect(isCondenseError(error) && error.code).toBe('INVALID_OPTIONS');
      expect((error as Error).message).toContain('s.jsonl');
    }
  });

  it('prefers the latest last-prompt leaf over a newer stale branch', () => {
    const { builder, abandoned, kept } = rewound();
    builder.sideRecord('last-prompt', abandoned);
    const session = both(Buffer.from(builder.jsonl()));
    expect(session.leaf).toMatchObject({ uuid: abandoned, reason: 'last-prompt' });
    expect(session.chain.map((record) => record.uuid)).not.toContain(kept);
    expect(session.lastPrompt).toBeTypeOf('string');
  });

  it('keeps the newest record when it continues the last-prompt leaf', () => {
    const builder = new SessionBuilder(6);
    const first = builder.turn(null, { small: true, outputScale: 0.01 });
    builder.sideRecord('last-prompt', first);
    const next = builder.turn(first, { small: true, outputScale: 0.01 });
    expect(both(Buffer.from(builder.jsonl())).leaf).toMatchObject({ uuid: next, reason: 'newest-message' });
  });

  it('never picks a sidechain record of a main file, but reads a subagent file of sidechain records', () => {
    const builder = new SessionBuilder(7);
    const tip = builder.turn(null, { small: true, outputScale: 0.01 });
    const side = builder.sidechainRecord(tip);
    const main = both(Buffer.from(builder.jsonl()));
    expect(main.leaf?.uuid).toBe(tip);
    expect(main.deadBranches).toMatchObject({ count: 0, sidechainRecords: 1 });
    const agent = both(jsonl(builder.records.filter((record) => record['uuid'] === side)));
    expect(agent.leaf?.uuid).toBe(side);
  });
});

describe('loadSession: damaged links', () => {
  it('cuts the chain at a missing parent and says where', () => {
    const builder = new SessionBuilder(8);
    builder.turn(null, { small: true, outputScale: 0.01 });
    const cutAt = builder.records.findIndex((record) => record['toolUseResult'] !== undefined);
    (builder.records[cutAt] as Record<string, unknown>)['parentUuid'] = 'gone-0000';
    const session = both(Buffer.from(builder.jsonl()));
    const issue = session.issues.find((item) => item.code === 'missing-parent');
    expect(issue?.line).toBe(cutAt + 1);
    expect(issue?.message).toContain('gone-0000');
    expect(session.chain[0]?.line).toBe(cutAt + 1);
  });

  it('stops at a cycle instead of looping', () => {
    const builder = new SessionBuilder(9);
    builder.turn(null, { small: true, outputScale: 0.01 });
    const first = builder.records[0] as Record<string, unknown>;
    first['parentUuid'] = builder.records[2]?.['uuid'];
    const session = both(Buffer.from(builder.jsonl()));
    expect(codes(session)).toContain('cycle');
    expect(session.chain.length).toBeLessThanOrEqual(builder.records.length);
  });

  it('lets the last copy of a repeated uuid win, and reports the repeat', () => {
    const builder = new SessionBuilder(10);
    const tip = builder.turn(null, { small: true, outputScale: 0.01 });
    const copy = { ...(builder.records.find((record) => record['uuid'] === tip) as Record<string, unknown>) };
    builder.records.push(copy);
    const session = both(Buffer.from(builder.jsonl()));
    expect(session.leaf?.line).toBe(builder.records.length);
    expect(session.issues.find((issue) => issue.code === 'duplicate-uuid')?.line).toBe(
      builder.records.length,
    );
  });
});

describe('loadSession: parallel tool calls', () => {
  it('follows a long side chain of non-prompt records hanging off the chain without blowing up', () => {
    const builder = new SessionBuilder(13);
    const tip = builder.turn(null, { small: true, outputScale: 0.01 });
    let side = tip;
    for (let step = 0; step < 3000; step++) side = builder.progress(side, 'toolu_side');
    builder.assistantBlock(side, 'msg_other', { type: 'text', text: 'regenerated far away' });
    builder.prompt(tip, 'next');
    const session = both(Buffer.from(builder.jsonl()));
    expect(session.deadBranches.count).toBe(1);
    expect(session.deadBranches.branches[0]?.records).toBe(3001);
  });

  it('re-attaches results and sibling calls left on side branches, so every call keeps its result', () => {
    for (let seed = 0; seed < 30; seed++) {
      const builder = new SessionBuilder(seed);
      let tip: string | null = null;
      for (let turn = 0; turn < 3; turn++)
        tip = builder.turn(tip, {
          small: true,
          outputScale: 0.01,
          parallelShare: 1,
          continueFromFirst: true,
          interleave: true,
        });
      const session = both(Buffer.from(builder.jsonl()));
      const calls = builder.records.flatMap((record) => {
        const content = (record['message'] as { content?: unknown } | undefined)?.content;
        return Array.isArray(content) ? content.filter((block) => block.type === 'tool_use') : [];
      });
      const decodedCalls = session.transcript.messages.flatMap((message) =>
        message.parts.filter((part) => part.type === 'tool-call'),
      );
      expect(decodedCalls).toHaveLength(calls.length);
      expect(verifyTranscript(session.transcript)).toEqual([]);
      expect(session.deadBranches.count).toBe(0);
    }
  });
});

describe('loadSession: compaction boundaries', () => {
  function compacted(broken = false) {
    const builder = new SessionBuilder(11);
    const before = builder.turn(null, { small: true, outputScale: 0.01 });
    const summary = builder.compaction(broken ? 'missing-0000' : before);
    const after = builder.turn(summary, { small: true, outputScale: 0.01 });
    return { builder, before, summary, after };
  }

  it('crosses a boundary through its logical parent and marks where it sits', () => {
    const { builder, summary } = compacted();
    const session = both(Buffer.from(builder.jsonl()));
    const boundary = session.boundaries[0];
    expect(session.boundaries).toHaveLength(1);
    expect(boundary).toMatchObject({ link: 'crossed', kind: 'compact_boundary', trigger: 'auto' });
    expect(session.transcript.messages[boundary?.messageIndex ?? -1]?.id).toBe(summary);
    expect(boundary?.messageIndex).toBeGreaterThan(0);
    expect(verifyTranscript(session.transcript)).toEqual([]);
  });

  it('shows only what follows the last boundary in the context view', () => {
    const { builder, summary } = compacted();
    const full = both(Buffer.from(builder.jsonl()));
    const context = both(Buffer.from(builder.jsonl()), { view: 'context' });
    expect(context.transcript.messages[0]?.id).toBe(summary);
    expect(context.transcript.messages.length).toBe(
      full.transcript.messages.length - (full.boundaries[0]?.messageIndex ?? 0),
    );
    expect(context.boundaries[0]?.link).toBe('start');
  });

  it('continues from the newest earlier message when the logical parent is missing, and reports it', () => {
    const { builder, before } = compacted(true);
    const session = both(Buffer.from(builder.jsonl()));
    expect(session.boundaries[0]?.link).toBe('resumed');
    expect(session.chain.map((record) => record.uuid)).toContain(before);
    const issue = session.issues.find((item) => item.code === 'boundary-link-missing');
    expect(issue?.message).toContain('missing-0000');
  });

  it('splices a preserved segment after the summary in the context view (Claude Code relink)', () => {
    const builder = new SessionBuilder(12);
    const prompt = builder.prompt(null, 'keep me');
    const answer = builder.assistantBlock(prompt, 'msg_keep', { type: 'text', text: 'kept answer' });
    const later = builder.prompt(answer, 'summarized away');
    const summary = builder.compaction(later);
    const boundary = builder.records.at(-2) as Record<string, unknown>;
    (boundary['compactMetadata'] as Record<string, unknown>)['preservedSegment'] = {
      headUuid: prompt,
      anchorUuid: summary,
      tailUuid: answer,
    };
    builder.prompt(summary, 'after compaction');
    const context = both(Buffer.from(builder.jsonl()), { view: 'context' });
    expect(textOf(context).map((text) => text.slice(0, 20))).toEqual([
      'This session is bein',
      'keep me',
      'kept answer',
      'after compaction',
    ]);
    const full = both(Buffer.from(builder.jsonl()));
    expect(textOf(full)[0]).toBe('keep me');
    expect(textOf(full)).toHaveLength(5);
  });
});
