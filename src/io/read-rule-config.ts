import { parseRuleConfig } from '../engines/rules/config.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';
import { readTextFile } from './read-text.js';

/**
 * Reads a rules engine configuration file (`compaction.yaml`): the options it sets, validated. Throws
 * `IO_FAILED` when the file cannot be read and `INVALID_OPTIONS` naming the file, line and key when a value is
 * wrong or a key is unknown.
 */
export async function readRuleConfigFile(path: string): Promise<RuleEngineOptions> {
  return parseRuleConfig(await readTextFile(path), { file: path });
}
