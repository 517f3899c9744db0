import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyTranscript } from '../../src/model/verify.js';
import { loadSession } from '../../src/session/load-session.js';
import { buildSession, sessionPlanArb } from './arbitrary-session.js';
import { comparable } from './helpers.js';

describe('byte pre-filter (property)', () => {
  it('gives the same session as parsing every line, on random damaged session trees', () => {
    fc.assert(
      fc.property(sessionPlanArb(), fc.constantFrom('full' as const, 'context' as const), (plan, view) => {
        const bytes = buildSession(plan);
        const fast = loadSession(bytes, { view });
        const slow = loadSession(bytes, { view, prefilter: false });
        expect(slow.stats.prefilter).toBe('off');
        expect(comparable(fast)).toEqual(comparable(slow));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees for any leaf asked for', () => {
    fc.assert(
      fc.property(sessionPlanArb(), fc.nat(), (plan, pick) => {
        const bytes = buildSession(plan);
        const uuids = [...loadSession(bytes, { prefilter: false }).recordUuids].sort();
        if (uuids.length === 0) return;
        const leaf = uuids[pick % uuids.length] as string;
        expect(comparable(loadSession(bytes, { leaf }))).toEqual(
          comparable(loadSession(bytes, { leaf, prefilter: false })),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('parses only part of a file with dead branches, and never falls back on intact Claude Code files', () => {
    fc.assert(
      fc.property(sessionPlanArb({ damage: false }), (plan) => {
        const session = loadSession(buildSession({ ...plan, style: {} }));
        expect(session.stats.prefilter).toBe('used');
        expect(session.stats.parsedLines).toBeLessThanOrEqual(session.stats.lines);
      }),
      { numRuns: 150 },
    );
  });

  it('answers every tool call of an intact session, parallel calls included', () => {
    fc.assert(
      fc.property(sessionPlanArb({ damage: false }), (plan) => {
        const session = loadSession(buildSession(plan));
        const problems = verifyTranscript(session.transcript).filter(
          (violation) => violation.code !== 'empty-message',
        );
        expect(problems).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
