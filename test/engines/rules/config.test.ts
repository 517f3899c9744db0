import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRuleConfig } from '../../../src/engines/rules/config.js';
import { resolveRuleSettings } from '../../../src/engines/rules/options.js';
import { isCondenseError } from '../../../src/errors/condense-error.js';
import { readRuleConfigFile } from '../../../src/io/read-rule-config.js';
import { ROOT } from '../../support/cli.js';

const SEED = `compaction:
  enabled: true
  trigger_threshold: 0.60    # fire at 60% of context window
  protect_last_n_turns: 5    # never touch recent turns
  max_tool_output_chars: 500 # truncate above this
  keep_tool_summary: true    # one-line summaries of collapsed tools
  drop_system_after_turn: 1  # drop system messages after turn 1
  collapse_consecutive_assistant: true
`;

function failure(
  text: string,
  file?: string,
): { message: string; line: number | undefined; file: string | undefined } {
  try {
    parseRuleConfig(text, file === undefined ? {} : { file });
  } catch (error) {
    if (!isCondenseError(error)) throw error;
    expect(error.code).toBe('INVALID_OPTIONS');
    return { message: error.message, line: error.location?.line, file: error.location?.file };
  }
  throw new Error('expected the configuration to be rejected');
}

describe('rules configuration (YAML)', () => {
  it('reads the seed configuration into engine options', () => {
    expect(parseRuleConfig(SEED)).toEqual({
      enabled: true,
      triggerThreshold: 0.6,
      protectLastN: 5,
      maxToolOutputChars: 500,
      keepToolSummary: true,
      dropSystemAfterTurn: 1,
      collapseConsecutiveAssistant: true,
    });
  });

  it('accepts the keys at the top level, presets and the extra keys, and an empty file', () => {
    expect(parseRuleConfig('preset: strict\ncache_friendly: true\ntruncate_head_lines: 4\n')).toEqual({
      preset: 'strict',
      cacheFriendly: true,
      truncateHeadLines: 4,
    });
    expect(parseRuleConfig('')).toEqual({});
    expect(parseRuleConfig('compaction:\n')).toEqual({});
  });

  it('names an unknown key, its line, and the key it probably meant', () => {
    const problem = failure('compaction:\n  enabled: true\n  protect_last_turns: 3\n', 'compaction.yaml');
    expect(problem.message).toContain('unknown key "compaction.protect_last_turns"');
    expect(problem.message).toContain('did you mean "protect_last_n_turns"');
    expect(problem.line).toBe(3);
    expect(problem.file).toBe('compaction.yaml');
    expect(failure('compaction: {}\nextra: 1\n').message).toContain('unknown top-level key "extra"');
  });

  it('says what a wrong value should be, for every wrong key at once', () => {
    const problem = failure(
      'compaction:\n  trigger_threshold: 1.5\n  enabled: "yes"\n  protect_last_n_turns: 0\n',
    );
    expect(problem.message).toContain(
      'compaction.trigger_threshold must be a share of the context window in (0, 1]',
    );
    expect(problem.message).toContain('compaction.enabled must be true or false, got "yes"');
    expect(problem.message).toContain(
      'compaction.protect_last_n_turns must be a whole number of turns ≥ 1, got 0',
    );
    expect(problem.line).toBe(2);
    expect(failure('preset: lenient\n').message).toContain('preset must be default or strict');
  });

  it('reports YAML syntax errors with their line', () => {
    const problem = failure('compaction:\n  enabled: [true\n  other: 1\n');
    expect(problem.message).toMatch(/invalid compaction configuration/);
    expect(problem.line).toBeGreaterThanOrEqual(2);
    expect(failure('- a\n- b\n').message).toContain('must be a mapping');
  });

  it('reads the example configuration file, whose values are the defaults', async () => {
    const options = await readRuleConfigFile(join(ROOT, 'examples', 'compaction.yaml'));
    const settings = resolveRuleSettings(options);
    expect(settings).toEqual(resolveRuleSettings({}));
  });

  it('rejects unknown and out-of-range library options by name', () => {
    expect(() => resolveRuleSettings({ protectLastTurns: 3 } as never)).toThrow(/protectLastTurns/);
    expect(() => resolveRuleSettings({ triggerThreshold: 0 })).toThrow(/triggerThreshold/);
    expect(() => resolveRuleSettings({ maxToolOutputChars: 10 })).toThrow(/maxToolOutputChars/);
    expect(resolveRuleSettings({ preset: 'strict', protectLastNTurns: 4 })).toMatchObject({
      protectLastN: 4,
      maxToolOutputChars: 200,
      truncateHeadLines: 5,
      truncateTailLines: 3,
    });
  });
});
