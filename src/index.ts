/**
 * condense — the pure core: the transcript model, codecs for every wire format, token counting, redaction,
 * deterministic transforms, summarizers and compaction engines, the HTML report (`renderReportHtml`) and the
 * Vercel AI SDK integration (`condensePrepareStep`, `condenseMiddleware`). No file system, no process access:
 * file, batch and proxy helpers live in `condense/node`, test doubles in `condense/testing`.
 * @module
 */

export type {
  Codec,
  CodecCapabilities,
  DecodeIssue,
  DecodeIssueCode,
  DecodeResult,
  DetectScore,
  FileLayout,
} from './codecs/codec.js';
export { canonicalTranscript } from './codecs/convert/canonical.js';
export { convertDocument, type DocumentConversion } from './codecs/convert/convert-document.js';
export {
  type Conversion,
  type ConvertOptions,
  convertTranscript,
} from './codecs/convert/convert-transcript.js';
export {
  conversionLosses,
  describeLosses,
  type Loss,
  type LossKind,
  type LossTarget,
  mergeLosses,
} from './codecs/convert/losses.js';
export { canonicalProblems, introducedProblems } from './codecs/convert/rule-regressions.js';
export type { DecodeDocumentOptions } from './codecs/decode-document.js';
export {
  type DocumentEntry,
  type DocumentLayout,
  documentTranscripts,
  type TranscriptDocument,
} from './codecs/document.js';
export type { EncodableDocument } from './codecs/encode-document.js';
export {
  type ItemViolation,
  type ItemViolationCode,
  verifyResponsesInput,
} from './codecs/openai-responses/verify-items.js';
export { reasoningAsText } from './codecs/portable/reasoning-text.js';
export { markErrorContent, TOOL_ERROR_MARKER, unmarkResult } from './codecs/portable/tool-error.js';
export { applyToolIds, planToolIds, type ToolIdPlan } from './codecs/portable/tool-ids.js';
export {
  ANTHROPIC_TOOL_ID,
  anthropicWireProblems,
  isProviderFormat,
  openaiWireProblems,
  type ProviderFormat,
  type WireCheckOptions,
  type WireProblem,
  type WireProblemCode,
  type WireScope,
  wireProblems,
} from './codecs/provider-rules/index.js';
export { decodeDocument, detectFormat, encodeDocument, getCodec, layoutFor } from './codecs/registry.js';
export {
  ContextOverflowError,
  isContextOverflow,
  type OverflowDetails,
} from './engines/budget-error.js';
export {
  type Boundaries,
  type CommonReportFields,
  type CompactionReport,
  type CompressorReportDetails,
  NO_COMPRESSOR_DETAILS,
  type PruningReport,
  type RulesReportDetails,
  type SummaryReport,
  type TokenFigures,
} from './engines/compaction-report.js';
export type {
  Compactor,
  CompactorDisabled,
  CompactorPass,
  CompactorWindow,
} from './engines/compactor.js';
export { type CompactWireResult, compactWire } from './engines/compressor/compact-wire.js';
export { CompressorEngine } from './engines/compressor/compressor-engine.js';
export { compact, createCompressor } from './engines/compressor/create-compressor.js';
export { COMPRESSOR_DEFAULTS, type CompressorOptions } from './engines/compressor/options.js';
// Every type of the engine contract is public.
export type * from './engines/context-engine.js';
export { type CompactionFeedback, describeCompaction } from './engines/feedback.js';
export { GovernedEngine, governEngine } from './engines/governor.js';
export type { ChangeCounts } from './engines/message-changes.js';
export {
  buildProvenance,
  type CompactionProvenance,
  type InputProvenance,
  type InputStatus,
  keptProvenance,
  type OutputProvenance,
  type OutputStatus,
  type ProvenanceFacts,
  type RemovedReason,
} from './engines/provenance.js';
export {
  BUILTIN_ENGINE_NAMES,
  type BuiltinEngineName,
  type BuiltinEngineOptions,
  createEngine,
  createEngineRegistry,
  type EngineFactory,
  type EngineRegistry,
} from './engines/registry.js';
export { parseRuleConfig } from './engines/rules/config.js';
export { compactWithRules, createRuleEngine } from './engines/rules/create-rule-engine.js';
export {
  RULE_PRESETS,
  type RuleEngineOptions,
  type RulePreset,
} from './engines/rules/options.js';
export { RECALL_TOOL_NAME } from './engines/rules/recall.js';
export {
  type RestoreOptions,
  type RestoreResult,
  restoreTranscript,
} from './engines/rules/restore-transcript.js';
export { RuleEngine } from './engines/rules/rule-engine.js';
export { computeThreshold, type ThresholdInputs } from './engines/threshold.js';
export { ERROR_CODES, type ErrorCode } from './errors/codes.js';
export {
  CondenseError,
  type CondenseErrorOptions,
  type ErrorLocation,
  isCondenseError,
} from './errors/condense-error.js';
export {
  ARTIFACT_KINDS,
  type ArtifactCoverage,
  type ArtifactKind,
  type Artifacts,
  artifactCoverage,
  extractArtifacts,
} from './inspect/artifacts.js';
export { type InspectOptions, type InspectReport, inspectTranscripts } from './inspect/inspect-transcript.js';
export {
  type CondenseMiddlewareOptions,
  condenseMiddleware,
  type MiddlewareCompaction,
} from './integrations/ai-sdk/middleware.js';
export {
  type CompactionEvent,
  type CondensePrepareStep,
  type CondensePrepareStepOptions,
  condensePrepareStep,
} from './integrations/ai-sdk/prepare-step.js';
export type { EngineChoice } from './integrations/engine-choice.js';
export { FORMAT_NAMES, type FormatName, isFormatName } from './model/format.js';
export type { JsonArray, JsonObject, JsonValue } from './model/json.js';
export type { Message, MessageMeta, MessageOrigin } from './model/message.js';
export {
  messageText,
  textPart,
  toolCallsOf,
  toolResultsOf,
  toolResultText,
  withParts,
} from './model/message-helpers.js';
export { stripOrigins } from './model/origins.js';
export type {
  ImagePart,
  ImageSource,
  OpaquePart,
  Part,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from './model/part.js';
export { isRole, ROLES, type Role } from './model/role.js';
export type { Transcript, TranscriptMeta } from './model/transcript.js';
export {
  type VerifyOptions,
  type VerifyProvider,
  type Violation,
  type ViolationCode,
  verifyTranscript,
} from './model/verify.js';
export type { RedactionFinding, RedactTextResult } from './redact/apply-candidates.js';
export { SECRET_KINDS, type SecretKind } from './redact/kinds.js';
export type { RedactOptions, UserPattern } from './redact/options.js';
export { type RedactDocumentResult, redactDocument } from './redact/redact-document.js';
export { redactText } from './redact/redact-text.js';
export { type RedactTranscriptResult, redactTranscript } from './redact/redact-transcript.js';
export { createRedactor, type Redactor } from './redact/redactor.js';
export { REPORT_CSP, renderReportHtml } from './report/render-report.js';
export type { ReportInput, ReportTranscript } from './report/report-input.js';
export { createSummarizerChain, type SummarizerChain } from './summarizer/chain/summarizer-chain.js';
export {
  createExtractiveSummarizer,
  type ExtractiveSummarizerOptions,
} from './summarizer/extractive/extractive-summarizer.js';
export { createModelSummarizer, type ModelSummarizerOptions } from './summarizer/model/model-summarizer.js';
export type {
  Summarizer,
  SummaryRequest,
  SummaryResult,
  SummarySource,
} from './summarizer/summarizer.js';
export { isSummarizerError, SummarizerError, type SummarizerFailure } from './summarizer/summarizer-error.js';
export { createTokenCounter, type TokenCounterSpec } from './tokens/create-token-counter.js';
export { createEncodingCounter } from './tokens/encoding-counter.js';
export { encodingForModel } from './tokens/encoding-for-model.js';
export { createHuggingFaceCounter } from './tokens/huggingface-counter.js';
export { createRoughCounter } from './tokens/rough-counter.js';
export type { TokenCounter } from './tokens/token-counter.js';
export {
  type CompressTrajectoryOptions,
  compressTrajectory,
  type TrajectoryOutcome,
  type TrajectoryResult,
} from './trajectory/compress-trajectory.js';
export { aggregateMetricsJson } from './trajectory/metrics-aggregate.js';
export { previewTrajectory } from './trajectory/preview-trajectory.js';
export { parseTrajectoryConfig, type TrajectoryConfig } from './trajectory/trajectory-config.js';
export { type TrajectoryMetrics, toCompressionMetricsJson } from './trajectory/trajectory-metrics.js';
export type { TrajectoryPolicy } from './trajectory/trajectory-policy.js';
export {
  DEFAULT_TRAJECTORY_SETTINGS,
  type TrajectorySettings,
} from './trajectory/trajectory-settings.js';
export { parseCheckpoint, renderCheckpoint } from './transforms/checkpoint-text.js';
export { dedupeToolResults } from './transforms/dedupe-tool-results.js';
export { digestToolResult } from './transforms/digest-tool-result.js';
export { digestToolResults } from './transforms/digest-tool-results.js';
export { findBoundaries } from './transforms/find-boundaries.js';
export { findLatestUserRequest } from './transforms/find-latest-user-request.js';
export { placeCheckpoint } from './transforms/place-checkpoint.js';
export { pruneToolOutputs } from './transforms/prune-tool-outputs.js';
export { salientArguments } from './transforms/salient-arguments.js';
export { sanitizeToolPairs } from './transforms/sanitize-tool-pairs.js';
export { shrinkToolArguments } from './transforms/shrink-tool-arguments.js';
export { stripImages } from './transforms/strip-images.js';
