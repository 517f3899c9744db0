export { isUrl, looksLikePath, pathsIn, urlsIn } from './artifact-shapes.js';
export {
  type CheckpointAuthor,
  type CheckpointSource,
  checkpointOf,
  hasUserContentBesidesCheckpoint,
  isCheckpointMessage,
  type ParsedCheckpoint,
  parseCheckpoint,
  renderCheckpoint,
} from './checkpoint-text.js';
export { DIGEST_PREFIX, DUPLICATE_PREFIX, isCondensedOutput } from './condensed-markers.js';
export {
  type DedupeToolResultsOptions,
  type DedupeToolResultsResult,
  type DuplicateReference,
  dedupeToolResults,
} from './dedupe-tool-results.js';
export { argumentLocations, digestToolResult } from './digest-tool-result.js';
export {
  type DigestToolResultsOptions,
  type DigestToolResultsResult,
  digestToolResults,
} from './digest-tool-results.js';
export {
  type BoundaryReason,
  type BoundaryReasonCode,
  type FindBoundariesOptions,
  type FoundBoundaries,
  findBoundaries,
} from './find-boundaries.js';
export { findLatestUserRequest } from './find-latest-user-request.js';
export { clearErrorLine, exitStatus, failureLines, isErrorLine } from './output-facts.js';
export { type CheckpointPlacement, type PlacedCheckpoint, placeCheckpoint } from './place-checkpoint.js';
export {
  type PruneReport,
  type PruneToolOutputsOptions,
  type PruneToolOutputsResult,
  pruneBoundary,
  pruneToolOutputs,
} from './prune-tool-outputs.js';
export {
  type SalientArgument,
  type SalientArgumentOptions,
  type SalientKind,
  salientArguments,
  salientOf,
} from './salient-arguments.js';
export {
  DEFAULT_EMPTY_ASSISTANT_TEXT,
  DEFAULT_STUB_TEXT,
  type SanitizeToolPairsOptions,
  type SanitizeToolPairsResult,
  sanitizeToolPairs,
} from './sanitize-tool-pairs.js';
export {
  type ShrinkToolArgumentsOptions,
  type ShrinkToolArgumentsResult,
  shrinkArguments,
  shrinkToolArguments,
} from './shrink-tool-arguments.js';
export {
  defaultImagePlaceholder,
  type ImagePlaceholder,
  type StripHistoricalImagesOptions,
  type StripImagesOptions,
  type StripImagesResult,
  stripHistoricalImages,
  stripImages,
} from './strip-images.js';
export { type TailWalk, walkTail } from './tail-cut.js';
export { indexToolCalls, type ToolCallIndex } from './tool-call-index.js';
export { alignBack, alignForward, isCleanCut, turnEnd } from './tool-groups.js';
export { normalizeToolName, type ToolKind, toolKind, toolKindOf } from './tool-kind.js';
