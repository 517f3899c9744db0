/**
 * condense/node — the edges that need Node: reading and writing transcript files atomically, tokenizer files,
 * session export, the trajectory batch runner (locally, or over a Redis queue with `createQueueDispatcher` and
 * `startQueueWorker`) and the HTTP sidecar (`startProxy`).
 * @module
 */

export type { BatchEvent, BatchIssue, FileReport, TrajectoryRunReport } from './batch/batch-events.js';
export type { DispatcherSetup, EntryDispatcher, SettleEntry } from './batch/entry-dispatcher.js';
export type { QueueJobConfig, QueueModel } from './batch/queue/chunk-job.js';
export { createQueueDispatcher, type QueueDispatcherOptions } from './batch/queue/queue-dispatcher.js';
export {
  type QueueWorkerEvent,
  type QueueWorkerOptions,
  type RunningQueueWorker,
  startQueueWorker,
} from './batch/queue/queue-worker.js';
export { type RunTrajectoriesOptions, runTrajectories } from './batch/run-trajectories.js';
export {
  CONDENSE_HEADER,
  CONVERSATION_HEADER,
  parseCondenseHeader,
} from './integrations/proxy/condense-header.js';
export {
  PROXY_DEFAULTS,
  type ProxyEvent,
  type ProxyOptions,
} from './integrations/proxy/options.js';
export { type RunningProxy, startProxy } from './integrations/proxy/server.js';
export { writeFileAtomic } from './io/atomic-write.js';
export { loadTokenizerFile } from './io/load-tokenizer-file.js';
export {
  type LoadedDocument,
  type ReadTranscriptFileOptions,
  readTranscriptFile,
} from './io/read-document.js';
export { readRuleConfigFile } from './io/read-rule-config.js';
export { readTextFile } from './io/read-text.js';
export {
  type TrajectoryRecord,
  type WriteTrajectoryOptions,
  type WriteTrajectoryResult,
  writeTrajectory,
} from './io/write-trajectory.js';
export {
  type ExportedSession,
  type ExportFormat,
  type ExportOptions,
  exportSession,
} from './session/export-session.js';
export { SESSION_SCHEMA, type SessionLine } from './session/line-schema.js';
export { type ListSessionsOptions, listSessions, type SessionListing } from './session/list-sessions.js';
export { loadSession } from './session/load-session.js';
export {
  type LoadSessionFileOptions,
  loadSessionFile,
  type SessionFile,
} from './session/load-session-file.js';
export { openSessionWriter } from './session/open-session-writer.js';
export { renderReplay, replayChunks } from './session/render-replay.js';
export type {
  DeadBranch,
  LoadedSession,
  LoadSessionOptions,
  SessionBoundary,
  SessionIssue,
  SessionView,
} from './session/session-types.js';
export {
  type CompactionInput,
  type SessionSink,
  SessionWriter,
  type SessionWriterOptions,
} from './session/session-writer.js';
export type { WritePolicy } from './session/write-policy.js';
