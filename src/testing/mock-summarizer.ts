import type {
  SummarizeContext,
  Summarizer,
  SummaryRequest,
  SummaryResult,
} from '../summarizer/summarizer.js';
import { checkpointAnswer } from './checkpoint-answer.js';

/** One scripted answer of a mock summarizer: text, an error to throw, or a function of the request. */
export type MockReply = string | Error | ((request: SummaryRequest) => string | Promise<string>);

/** Options of {@link createMockSummarizer}. */
export interface MockSummarizerOptions {
  /**
   * Answers in order; the last one repeats once the list runs out.
   * @default a fixed checkpoint naming how many messages it was given
   */
  readonly replies?: readonly MockReply[];
  /** @default 'mock' */
  readonly name?: string;
  /** @default 'model' */
  readonly kind?: Summarizer['kind'];
}

/** A summarizer for tests: scripted answers, and a record of every request it got. */
export interface MockSummarizer extends Summarizer {
  readonly requests: readonly SummaryRequest[];
}

function defaultReply(request: SummaryRequest): string {
  return checkpointAnswer({
    currentRequest: request.latestUserRequest ?? '- none',
    references: `- mock checkpoint of ${request.messages.length} messages`,
  });
}

/**
 * A summarizer that needs no model and no network: it answers from `replies` (text, a thrown error such as a
 * `SummarizerError`, or a function of the request) and records each request in `requests`.
 */
export function createMockSummarizer(options: MockSummarizerOptions = {}): MockSummarizer {
  const requests: SummaryRequest[] = [];
  const replies = options.replies ?? [defaultReply];
  const kind = options.kind ?? 'model';
  const name = options.name ?? 'mock';
  return {
    name,
    kind,
    requests,
    async summarize(request: SummaryRequest, context: SummarizeContext = {}): Promise<SummaryResult> {
      context.signal?.throwIfAborted();
      const reply = replies[Math.min(requests.length, replies.length - 1)] ?? defaultReply;
      requests.push(request);
      if (reply instanceof Error) throw reply;
      const text = typeof reply === 'function' ? await reply(request) : reply;
      return kind === 'model'
        ? { text, source: 'model', model: name, calls: 1 }
        : { text, source: 'extractive', calls: 0 };
    },
  };
}
