import { fileURLToPath } from 'node:url';
import { type BenchRow, type BenchSuite, round } from './harness.js';
import { interleavedMedians } from './process-time.js';

const SUITE = 'cli-startup';
const BIN = fileURLToPath(new URL('../bin/condense.js', import.meta.url));
/** The README's example: 89 messages, 57 KB, so the run is mostly loading the code and little compacting. */
const EXAMPLE = fileURLToPath(new URL('../examples/coding-agent-session.openai.json', import.meta.url));

/**
 * Start-up of the built binary against bare Node in the same run: `condense --version` and `--help` parse their
 * arguments without loading any command's code (each command imports its module when it runs), and a whole
 * `compact` of a small transcript (output to standard output, thrown away), where loading the code is most of
 * the time.
 */
const suite: BenchSuite = {
  name: 'CLI start-up vs bare node',
  async run() {
    const commands = [
      ['-e', '0'],
      [BIN, '--version'],
      [BIN, '--help'],
      [BIN, 'compact', '--force', '-c', '8000', EXAMPLE],
    ];
    const [bare, version, help, compact] = interleavedMedians(commands, 21) as [
      number,
      number,
      number,
      number,
    ];
    const row = (label: string, ms: number): BenchRow => ({
      suite: SUITE,
      case: label,
      figures: { ms: round(ms, 1), 'vs node -e 0': `${round(ms / bare, 2)}×` },
    });
    return [
      row('node -e 0 (peer)', bare),
      row('condense --version', version),
      row('condense --help', help),
      row('condense compact of the 89-message example', compact),
    ];
  },
};

export default suite;
