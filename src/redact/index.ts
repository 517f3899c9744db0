export type { RedactionFinding, RedactTextResult } from './apply-candidates.js';
export type { MaskStyle } from './candidate.js';
export {
  type BuiltinSecretKind,
  type CustomSecretKind,
  isBuiltinSecretKind,
  SECRET_KINDS,
  type SecretKind,
} from './kinds.js';
export { isMasked, maskSecret, REDACTED, REDACTED_PRIVATE_KEY } from './mask.js';
export { classifySecretName, type SecretNameClass } from './names.js';
export type { RedactOptions, UserPattern } from './options.js';
export { type DocumentFinding, type RedactDocumentResult, redactDocument } from './redact-document.js';
export {
  type LocatedFinding,
  type PathSegment,
  type RedactedValue,
  redactJsonText,
  redactJsonValue,
} from './redact-json.js';
export { redactText } from './redact-text.js';
export {
  type RedactTranscriptResult,
  redactTranscript,
  redactTranscriptWith,
  type TranscriptFinding,
} from './redact-transcript.js';
export { builtinRules, createRedactor, type Redactor } from './redactor.js';
export type { RedactRule } from './rule.js';
