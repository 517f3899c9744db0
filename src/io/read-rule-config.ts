import { parseRuleConfig } from '../engines/rules/config.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';
import { checkTextInput } from './check-text.js';
import { readTextFile } from './read-text.js';

/**
 * Reads a rules engine configuration file (`compaction.yaml`): the options it sets, validated. Throws
 * `IO_FAILED` when the file cannot be read, `EMPTY_INPUT` or `INVALID_INPUT` when it is empty or binary, and `INVALID_OPTIONS` naming the file, line and key when a value is
 * wrong or a key is unknown.
 */
export async function readRuleConfigFile(path: string): Promise<RuleEngineOptions> {
  const text = await readTextFile(path);
  checkTextInput(text, path, {
    kind: 'YAML text',
    hint: 'pass a compaction.yaml (see examples/compaction.yaml)',
  });
  return parseRuleConfig(text, { file: path });
}
