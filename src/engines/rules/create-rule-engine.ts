import type { Transcript } from '../../model/transcript.js';
import type { CompactionResult, CompressOptions } from '../context-engine.js';
import type { RuleEngineOptions } from './options.js';
import { RuleEngine } from './rule-engine.js';

/**
 * Creates the rules engine: zero-inference compaction by deterministic rules, configured by options or by a
 * `compaction.yaml` read with `parseRuleConfig`. Throws `INVALID_OPTIONS` naming any unknown or out-of-range
 * option.
 */
export function createRuleEngine(options: RuleEngineOptions = {}): RuleEngine {
  return new RuleEngine(options);
}

/**
 * Compacts a transcript once with a fresh rules engine: the one-call API for scripts and the CLI. `force`
 * defaults to true here (the caller asked for it); pass `force: false` to compact only above the threshold.
 * `focusTopic` is accepted for symmetry with the compressor and ignored: rules have no notion of topic.
 */
export function compactWithRules(
  transcript: Transcript,
  options: RuleEngineOptions & CompressOptions = {},
): Promise<CompactionResult> {
  const { focusTopic: _focus, currentTokens, force, signal, ...engineOptions } = options;
  return createRuleEngine(engineOptions).compress(transcript, {
    force: force ?? true,
    ...(currentTokens === undefined ? {} : { currentTokens }),
    ...(signal === undefined ? {} : { signal }),
  });
}
