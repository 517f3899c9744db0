export { FORMAT_NAMES, type FormatName, isFormatName } from './format.js';
export { isJsonObject, type JsonArray, type JsonObject, type JsonValue } from './json.js';
export type { Message, MessageMeta, MessageOrigin } from './message.js';
export {
  hasToolCalls,
  messageText,
  textPart,
  toolCallsOf,
  toolResultsOf,
  toolResultText,
  withParts,
} from './message-helpers.js';
export { stripOrigins } from './origins.js';
export type {
  ImagePart,
  ImageSource,
  OpaquePart,
  Part,
  PartMeta,
  PartType,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from './part.js';
export { isRole, ROLES, type Role } from './role.js';
export type { Transcript, TranscriptMeta, TranscriptOrigin } from './transcript.js';
export {
  type VerifyOptions,
  type VerifyProvider,
  type Violation,
  type ViolationCode,
  verifyTranscript,
} from './verify.js';
