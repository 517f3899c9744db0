export { buildTokenCounter, type TextTokenCounter } from './build-token-counter.js';
export {
  type CountingOptions,
  DEFAULT_COUNTING_OPTIONS,
  type ResolvedCountingOptions,
  resolveCountingOptions,
} from './counting-options.js';
export {
  type CreateTokenCounterOptions,
  createTokenCounter,
  type HuggingFaceTokenizerFiles,
  type TokenCounterSpec,
} from './create-token-counter.js';
export { createEncodingCounter } from './encoding-counter.js';
export { ENCODING_NAMES, type EncodingName, encodingForModel, isEncodingName } from './encoding-for-model.js';
export { estimateTextTokens } from './estimate-text-tokens.js';
export { createExactCounter, type ExactCounterOptions, type PieceEncoder } from './exact-counter.js';
export { createHuggingFaceCounter, type HuggingFaceCounterOptions } from './huggingface-counter.js';
export { ROUGH_WEIGHTS, type RoughWeights } from './rough-calibration.js';
export { createRoughCounter, type RoughCounterOptions } from './rough-counter.js';
export { DEFAULT_SPLIT_LIMITS, type SplitLimits, sumOverPieces } from './split-text.js';
export { type TokenBreakdown, tokenBreakdown, UNKNOWN_TOOL } from './token-breakdown.js';
export type { TokenCounter } from './token-counter.js';
