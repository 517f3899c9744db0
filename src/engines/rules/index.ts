export {
  applyRules,
  type OriginalPosition,
  type RulesPassOptions,
  type RulesPassResult,
} from './apply-rules.js';
export type { CollapsedElement, ElementKind } from './collapsed-element.js';
export { parseRuleConfig, RULE_CONFIG_KEYS, type RuleConfigSource } from './config.js';
export { fnv1a, messageHash, valueHash } from './content-hash.js';
export { compactWithRules, createRuleEngine } from './create-rule-engine.js';
export {
  type ResolvedRuleSettings,
  RULE_PRESET_SETTINGS,
  RULE_PRESETS,
  type RuleEngineOptions,
  type RulePreset,
  resolveRuleSettings,
} from './options.js';
export { RECALL_TOOL, RECALL_TOOL_NAME, renderElement } from './recall.js';
export { type ElementRef, formatRef, refKey, refsIn, refsOfMessage } from './references.js';
export { type RestoreOptions, type RestoreResult, restoreTranscript } from './restore-transcript.js';
export { RuleEngine } from './rule-engine.js';
