export { type CooldownPolicy, cooldownFor, DEFAULT_COOLDOWNS } from './chain/cooldowns.js';
export {
  type ChainAttempt,
  type ChainResult,
  type ChainStatus,
  type ChainTier,
  createSummarizerChain,
  type StickyFailure,
  type SummarizerChain,
  type SummarizerChainOptions,
  type TierStatus,
} from './chain/summarizer-chain.js';
export { SUMMARY_UNAVAILABLE_TEXT } from './chain/summary-unavailable.js';
export {
  createExtractiveSummarizer,
  type ExtractiveSummarizerOptions,
} from './extractive/extractive-summarizer.js';
export { defaultSleep, type Sleep } from './model/call-model.js';
export {
  createLanguageModel,
  MODEL_PROVIDERS,
  type ModelProvider,
  type ModelSpec,
  type ProviderSettings,
  parseModelSpec,
} from './model/create-language-model.js';
export { createModelSummarizer, type ModelSummarizerOptions } from './model/model-summarizer.js';
export {
  buildCheckpointPrompt,
  buildFirstPassPrompt,
  buildUpdatePrompt,
  type CheckpointPromptInput,
} from './prompts/checkpoint-prompts.js';
export {
  CHECKPOINT_SECTIONS,
  CHECKPOINT_TEMPLATE_VERSION,
  type CheckpointSection,
  isEmptySection,
  type ParsedSections,
  parseSections,
  SECTION_KEYS,
  type SectionKey,
  sectionHeading,
} from './prompts/checkpoint-template.js';
export {
  clipMiddle,
  type SerializeOptions,
  serializeTurns,
  stripReasoningTags,
} from './serialize-turns.js';
export type {
  SummarizeContext,
  Summarizer,
  SummaryRequest,
  SummaryResult,
  SummarySource,
} from './summarizer.js';
export {
  isStickyFailure,
  isSummarizerError,
  SUMMARIZER_FAILURES,
  SummarizerError,
  type SummarizerErrorOptions,
  type SummarizerFailure,
} from './summarizer-error.js';
