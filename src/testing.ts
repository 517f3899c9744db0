export { checkpointAnswer } from './testing/checkpoint-answer.js';
export {
  type EngineCheck,
  type EngineConformanceCase,
  type EngineConformanceFailure,
  type EngineConformanceOptions,
  type EngineConformanceResult,
  runEngineConformance,
} from './testing/engine-conformance.js';
export {
  type LoopbackOptions,
  type LoopbackProvider,
  type LoopbackRequest,
  type LoopbackScript,
  startLoopbackProvider,
} from './testing/loopback-provider.js';
export {
  type LoopbackReply,
  type LoopbackToolCall,
  type LoopbackUsage,
  loopbackReplies,
} from './testing/loopback-reply.js';
export type { LoopbackProtocol } from './testing/loopback-wire.js';
export {
  createMockSummarizer,
  type MockReply,
  type MockSummarizer,
  type MockSummarizerOptions,
} from './testing/mock-summarizer.js';
export {
  assistantMessage,
  buildCodingSession,
  type CodingSessionOptions,
  systemMessage,
  toolCall,
  toolResult,
  userMessage,
} from './testing/transcript-builders.js';
