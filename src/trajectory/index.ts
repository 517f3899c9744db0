export { type Assembled, clipToFit } from './assemble.js';
export {
  type CompressTrajectoryOptions,
  compressTrajectory,
  type TrajectoryOutcome,
  type TrajectoryResult,
} from './compress-trajectory.js';
export {
  type AggregateCounts,
  addToAggregate,
  aggregateMetricsJson,
  type EntryOutcome,
  emptyAggregate,
  mergeAggregates,
  type ProcessingTimes,
} from './metrics-aggregate.js';
export {
  type CompressionPlan,
  compressibleWindow,
  planCompression,
  protectedTurns,
  snapBoundary,
  type TurnSpan,
} from './plan-compression.js';
export { previewTrajectory, type TrajectoryPreview } from './preview-trajectory.js';
export { createSeededRandom, type RandomSource, sampleIndices } from './sample-entries.js';
export { HERMES_SUMMARY_PREFIX, summaryTurnText, TRAJECTORY_SUMMARY_KIND } from './summary-turn.js';
export { type ModelConfig, parseTrajectoryConfig, type TrajectoryConfig } from './trajectory-config.js';
export {
  ANNOTATIONS_KEY,
  type EntryExtras,
  encodeTrajectoryEntry,
  METRICS_KEY,
} from './trajectory-entry.js';
export {
  type AppliedStrategy,
  roundTo,
  type TrajectoryMetrics,
  toCompressionMetricsJson,
} from './trajectory-metrics.js';
export {
  type AnchorRule,
  type AnnotationPolicy,
  annotateTurns,
  findAnchors,
  type TrajectoryPolicy,
  type TurnAnnotation,
  withAnnotationNotes,
} from './trajectory-policy.js';
export {
  DEFAULT_SUMMARY_NOTICE,
  DEFAULT_TRAJECTORY_SETTINGS,
  type OverLimitStrategy,
  type ProtectFirst,
  type ResolvedTrajectorySettings,
  resolveTrajectorySettings,
  type SummaryFailurePolicy,
  type SummaryStyle,
  type TrajectorySettings,
} from './trajectory-settings.js';
