import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSessions } from '../../src/session/list-sessions.js';
import { temporaryDirectory } from '../support/cli.js';
import { CORPUS_DIR, FULL_CORPUS } from '../support/corpus.js';
import { SessionBuilder } from './generate-session.js';

describe('listSessions', () => {
  it('summarizes each session and resolves titles written into other files of the project', async () => {
    const dir = temporaryDirectory();
    try {
      const first = new SessionBuilder(31);
      const leaf = first.turn(null, { small: true, outputScale: 0.01 });
      first.compaction(leaf);
      writeFileSync(join(dir.path, `${first.sessionId}.jsonl`), first.jsonl());
      const second = new SessionBuilder(32);
      second.sideRecord('summary', leaf);
      const rewound = second.turn(null, { small: true, outputScale: 0.01 });
      second.turn(rewound, { small: true, outputScale: 0.01 });
      second.turn(rewound, { small: true, outputScale: 0.01 });
      writeFileSync(join(dir.path, `${second.sessionId}.jsonl`), second.jsonl());
      writeFileSync(join(dir.path, 'empty.jsonl'), '');
      const skipped: string[] = [];
      const listings = await listSessions(dir.path, {
        onSkipped: (path, problem) => skipped.push(`${path} ${problem.code}`),
      });
      expect(listings).toHaveLength(2);
      expect(skipped).toEqual([`${join(dir.path, 'empty.jsonl')} EMPTY_INPUT`]);
      const one = listings.find((listing) => listing.sessionId === first.sessionId);
      const two = listings.find((listing) => listing.sessionId === second.sessionId);
      expect(one?.title).toBe(second.records[0]?.['summary']);
      expect(one).toMatchObject({ compactions: 1, deadBranches: 0 });
      expect(two).toMatchObject({ compactions: 0, deadBranches: 1, title: undefined });
      expect(two?.tokens).toBeGreaterThan(0);
    } finally {
      dir.remove();
    }
  });

  it.skipIf(!FULL_CORPUS)(
    'finds the titles of a real project, all kept in other sessions’ files',
    async () => {
      const dir = temporaryDirectory();
      try {
        const source = join(CORPUS_DIR, 'claude-code');
        for (const name of readdirSync(source)) {
          if (!name.startsWith('daaain__') || name.includes('__subagents__') || !name.endsWith('.jsonl'))
            continue;
          copyFileSync(join(source, name), join(dir.path, name.replace('daaain__claude-code-log__', '')));
        }
        const listings = await listSessions(dir.path);
        const titled = listings.filter((listing) => listing.title !== undefined);
        expect(titled.map((listing) => listing.sessionId?.slice(0, 8)).sort()).toEqual([
          '4379d1bf',
          'aa5c5ada',
          'b25638d7',
          'f852ad25',
        ]);
        expect(listings.every((listing) => !listing.path.includes('agent-'))).toBe(true);
      } finally {
        dir.remove();
      }
    },
  );
});
