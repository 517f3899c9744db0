import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { EXPORT_FORMATS, exportSession } from '../../src/session/export-session.js';
import { loadSession } from '../../src/session/load-session.js';
import { corpusFiles, FULL_CORPUS, shortName } from '../support/corpus.js';
import { comparable } from './helpers.js';

const files = corpusFiles('claude-code');
const byName = (fragment: string) => files.find((file) => file.includes(fragment)) as string;

describe('loadSession on every real Claude Code file', () => {
  it.each(files.map((file) => [shortName(file), file]))(
    '%s: every tool call keeps its result, and the pre-filter changes nothing',
    (_name, file) => {
      const bytes = readFileSync(file);
      const session = loadSession(bytes, { fileName: file });
      expect(verifyTranscript(session.transcript)).toEqual([]);
      expect(session.stats.prefilter).toBe('used');
      expect(comparable(session)).toEqual(
        comparable(loadSession(bytes, { fileName: file, prefilter: false })),
      );
      const context = loadSession(bytes, { view: 'context' });
      expect(verifyTranscript(context.transcript)).toEqual([]);
    },
  );

  // These need whole files of the shared corpus; the sample has the boundary of ae4a77f8 but not what led to it.
  it.skipIf(!FULL_CORPUS).each([
    ['4d5611e5', 'resumed', 'auto', 170_251],
    ['ae4a77f8', 'crossed', 'manual', 142_431],
    ['fa812bfe', 'crossed', 'auto', 167_117],
  ] as const)('replays %s across its compaction boundary', (id, link, trigger, preTokens) => {
    const file = files.find(
      (name) => name.includes(`marot__spotter__${id}`) && !name.includes('__subagents__'),
    ) as string;
    const session = loadSession(readFileSync(file));
    expect(session.boundaries).toHaveLength(1);
    const boundary = session.boundaries[0];
    expect(boundary).toMatchObject({ link, trigger, preTokens, kind: 'compact_boundary' });
    expect(boundary?.messageIndex).toBeGreaterThan(100);
    expect(session.transcript.messages.length - (boundary?.messageIndex ?? 0)).toBeGreaterThan(50);
    const summary = session.transcript.messages[boundary?.messageIndex ?? -1];
    expect(summary?.parts[0]?.type === 'text' && summary.parts[0].text).toMatch(
      /^This session is being continued/,
    );
    const context = loadSession(readFileSync(file), { view: 'context' });
    expect(context.transcript.messages[0]).toEqual(expect.objectContaining({ id: summary?.id }));
  });

  it.skipIf(!FULL_CORPUS)(
    'names the broken link of the compaction whose logical parent is not in the file',
    () => {
      const session = loadSession(readFileSync(byName('4d5611e5-241a-462a-8d15-5122611a9569.jsonl')));
      const issue = session.issues.find((item) => item.code === 'boundary-link-missing');
      expect(issue?.message).toContain('459e838f-d7ea-4f7d-94ad-2cb4d227dc77');
      expect(issue?.line).toBe(754);
    },
  );

  it.skipIf(!FULL_CORPUS).each([
    ['71c9afe9', 1, [1]],
    ['0d3a8e6f', 2, undefined],
    ['12a546d1', 1, undefined],
    ['937c6e6b', 1, undefined],
    ['cbc0f75b', 1, undefined],
  ] as const)('shows the rewound branches of %s and where they fork off', (id, count, forkLines) =>
    rewoundBranches(id, count, forkLines),
  );

  it('shows the rewound branches of 03eb5929 and where they fork off', () =>
    rewoundBranches('03eb5929', 1, [16]));

  function rewoundBranches(id: string, count: number, forkLines: readonly number[] | undefined): void {
    const session = loadSession(readFileSync(byName(`__${id}`)));
    expect(session.deadBranches.count).toBe(count);
    for (const branch of session.deadBranches.branches) {
      expect(branch.forkLine).toBeTypeOf('number');
      expect(branch.messages).toBeGreaterThan(0);
    }
    if (forkLines !== undefined)
      expect(session.deadBranches.branches.map((branch) => branch.forkLine)).toEqual(forkLines);
    const first = session.deadBranches.branches[0];
    const followed = loadSession(readFileSync(byName(`__${id}`)), { leaf: first?.leafUuid as string });
    expect(followed.chain.map((record) => record.uuid)).toContain(first?.firstUuid);
  }

  it.skipIf(!FULL_CORPUS)(
    're-attaches parallel calls of a streamed response hung off an earlier result',
    () => {
      const session = loadSession(
        readFileSync(byName('fa812bfe-b295-4cca-9c2f-fdf01028cb46__subagents__agent-aa84377')),
      );
      const calls = session.transcript.messages.flatMap((message) =>
        message.parts.filter((part) => part.type === 'tool-call'),
      );
      expect(calls.map((call) => (call.type === 'tool-call' ? call.id : ''))).toContain(
        'toolu_012CN3ZCQePMHR7VSNndb1ib',
      );
      expect(session.deadBranches.count).toBe(0);
    },
  );

  it.each(files.map((file) => [shortName(file), file]))(
    '%s: exports load back through the codecs',
    (_name, file) => {
      const session = loadSession(readFileSync(file));
      if (session.transcript.messages.length === 0) return;
      for (const to of EXPORT_FORMATS) {
        const { line } = exportSession(session, { to });
        const text = JSON.stringify(line);
        expect(text).not.toMatch(/"(parentUuid|isSidechain|toolUseResult|sourceToolAssistantUUID)":/);
        const document = decodeDocument(`${text}\n`, { format: to });
        expect(document.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
        const [back] = documentTranscripts(document);
        const provider = to === 'anthropic' ? 'anthropic' : to === 'openai' ? 'openai' : 'generic';
        // Anthropic lines always carry `system`; an empty one decodes to an empty system message.
        const problems = verifyTranscript(back ?? { messages: [] }, { provider }).filter(
          (violation) =>
            !(violation.code === 'empty-message' && back?.messages[violation.index]?.role === 'system'),
        );
        expect(problems).toEqual([]);
        const calls = (transcript: { messages: readonly { parts: readonly { type: string }[] }[] }) =>
          transcript.messages.flatMap((message) => message.parts.filter((part) => part.type === 'tool-call'))
            .length;
        expect(calls(back ?? { messages: [] })).toBe(calls(session.transcript));
      }
    },
  );
});
