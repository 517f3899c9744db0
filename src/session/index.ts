export { boundaryInfo } from './boundary.js';
export {
  EXPORT_FORMATS,
  type ExportedSession,
  type ExportFormat,
  type ExportOptions,
  exportSession,
  plainTranscript,
} from './export-session.js';
export {
  SESSION_SCHEMA,
  SESSION_SCHEMA_PREFIX,
  type SessionAttachmentLine,
  type SessionCompactionLine,
  type SessionHeaderLine,
  type SessionLine,
  type SessionMessageLine,
  type SessionTitleLine,
} from './line-schema.js';
export {
  type ListSessionsOptions,
  listSessions,
  projectTitles,
  type SessionListing,
  sessionFilesIn,
  titleFromProject,
} from './list-sessions.js';
export { loadSession } from './load-session.js';
export {
  type LoadedSubagent,
  type LoadSessionFileOptions,
  loadSessionFile,
  type SessionFile,
} from './load-session-file.js';
export { openSessionWriter } from './open-session-writer.js';
export {
  plainMessageJson,
  type ReplayRenderOptions,
  type ReplaySession,
  renderReplay,
} from './render-replay.js';
export { openFileSink } from './session-file.js';
export type {
  BoundaryLink,
  ChainRecord,
  DeadBranch,
  DeadBranchReport,
  LeafReason,
  LoadedSession,
  LoadSessionOptions,
  SessionBoundary,
  SessionFormat,
  SessionIssue,
  SessionIssueCode,
  SessionLeaf,
  SessionStats,
  SessionTitle,
  SessionView,
  TitleSource,
} from './session-types.js';
export {
  type CompactionInput,
  type SessionResume,
  type SessionSink,
  SessionWriter,
  type SessionWriterOptions,
  type SessionWriterStats,
} from './session-writer.js';
export { findSubagentFiles, type SubagentFile, type SubagentLayout } from './subagents.js';
export { imagePlaceholder, type WritePolicy } from './write-policy.js';
