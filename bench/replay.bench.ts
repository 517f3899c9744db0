import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateForkySession } from '../test/session/generate-session.js';
import { type BenchRow, type BenchSuite, round } from './harness.js';
import { interleavedRuns } from './process-time.js';

const SUITE = 'replay';
const BIN = fileURLToPath(new URL('../bin/condense.js', import.meta.url));
const PLAIN = fileURLToPath(new URL('./peers/plain-replay.mjs', import.meta.url));

/**
 * `condense replay` and `condense replay --json` end to end (a fresh process, output thrown away; wall time and
 * peak RSS) against the naive script in `peers/plain-replay.mjs`, which parses every line and walks the parent
 * chain, on a generated 150 MB Claude Code session with 92 % of its bytes on dead branches. The file is generated
 * into a temporary directory and removed.
 */
const suite: BenchSuite = {
  name: 'replay end to end vs a parse-everything script',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'condense-bench-replay-'));
    try {
      const path = join(dir, 'session-150mb.jsonl');
      writeFileSync(path, generateForkySession({ targetBytes: 150e6, deadShare: 0.92, seed: 151 }).text);
      const label = `${round(statSync(path).size / 1e6, 1)} MB, 92 % dead`;
      type Run = { ms: number; maxRssMb: number };
      const [plain, replay, json] = interleavedRuns(
        [
          [PLAIN, path],
          [BIN, 'replay', path],
          [BIN, 'replay', path, '--json'],
        ],
        5,
      ) as [Run, Run, Run];
      const rows: BenchRow[] = [
        {
          suite: SUITE,
          case: `${label} · plain script (peer)`,
          figures: { ms: round(plain.ms, 0), 'peer ÷ this': '1×', 'peak RSS MB': round(plain.maxRssMb, 0) },
        },
        {
          suite: SUITE,
          case: `${label} · condense replay`,
          figures: {
            ms: round(replay.ms, 0),
            'peer ÷ this': `${round(plain.ms / replay.ms, 2)}×`,
            'peak RSS MB': round(replay.maxRssMb, 0),
          },
        },
        {
          suite: SUITE,
          case: `${label} · condense replay --json`,
          figures: {
            ms: round(json.ms, 0),
            'peer ÷ this': `${round(plain.ms / json.ms, 2)}×`,
            'peak RSS MB': round(json.maxRssMb, 0),
          },
        },
      ];
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
