/** Token usage a scripted reply reports. */
export interface LoopbackUsage {
  readonly input: number;
  readonly output: number;
}

/** A tool call a scripted reply makes. */
export interface LoopbackToolCall {
  readonly id?: string;
  readonly name: string;
  /** JSON text, or a value serialized for you. */
  readonly arguments: string | Readonly<Record<string, unknown>>;
}

/** Fields every scripted reply can carry. */
interface ReplyTiming {
  /** Wait this long before answering, in milliseconds. */
  readonly delayMs?: number;
}

/**
 * What the loopback server answers to one request. Success replies are streamed (SSE) when the request asks
 * for a stream and sent as one JSON body otherwise; faults look like the provider's own.
 */
export type LoopbackReply =
  | (ReplyTiming & {
      readonly kind?: 'text';
      readonly text: string;
      /** Sent as `reasoning_content` (OpenAI) or a thinking block (Anthropic). */
      readonly reasoning?: string;
      readonly usage?: LoopbackUsage;
    })
  | (ReplyTiming & {
      readonly kind: 'tool-calls';
      readonly calls: readonly LoopbackToolCall[];
      readonly text?: string;
      /** Reasoning sent before the calls (as for a text reply). */
      readonly reasoning?: string;
      readonly usage?: LoopbackUsage;
    })
  /** A completion whose content is empty. */
  | (ReplyTiming & { readonly kind: 'empty'; readonly usage?: LoopbackUsage })
  /** An HTTP error with the provider's error body; `retryAfter` (seconds) sets the `retry-after` header. */
  | (ReplyTiming & {
      readonly kind: 'error';
      readonly status: number;
      readonly message?: string;
      /** Error code/type in the body (`insufficient_quota`, `model_not_found`…); defaults by status. */
      readonly code?: string;
      readonly retryAfter?: number;
    })
  /** Status 200 with a body that is not valid JSON. */
  | (ReplyTiming & { readonly kind: 'malformed'; readonly body?: string })
  /** The connection is closed half-way through the body (JSON) or the event stream (SSE). */
  | (ReplyTiming & { readonly kind: 'cut'; readonly text?: string })
  /** No answer at all until the server closes: for client timeouts. */
  | { readonly kind: 'hang' };

/** Ready-made replies for the usual cases and faults. */
export const loopbackReplies = {
  text: (text: string, usage?: LoopbackUsage): LoopbackReply =>
    usage === undefined ? { text } : { text, usage },
  toolCalls: (calls: readonly LoopbackToolCall[], text?: string): LoopbackReply =>
    text === undefined ? { kind: 'tool-calls', calls } : { kind: 'tool-calls', calls, text },
  empty: (): LoopbackReply => ({ kind: 'empty' }),
  /** 401 with the provider's authentication error. */
  auth: (): LoopbackReply => ({ kind: 'error', status: 401 }),
  /** OpenAI reports an exhausted quota as 429 `insufficient_quota`. */
  quota: (): LoopbackReply => ({
    kind: 'error',
    status: 429,
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  }),
  paymentRequired: (): LoopbackReply => ({ kind: 'error', status: 402 }),
  modelNotFound: (): LoopbackReply => ({ kind: 'error', status: 404 }),
  rateLimit: (retryAfterSeconds = 1): LoopbackReply => ({
    kind: 'error',
    status: 429,
    retryAfter: retryAfterSeconds,
  }),
  serverError: (): LoopbackReply => ({ kind: 'error', status: 500 }),
  unavailable: (): LoopbackReply => ({ kind: 'error', status: 503 }),
  malformed: (body?: string): LoopbackReply =>
    body === undefined ? { kind: 'malformed' } : { kind: 'malformed', body },
  cut: (text?: string): LoopbackReply => (text === undefined ? { kind: 'cut' } : { kind: 'cut', text }),
  hang: (): LoopbackReply => ({ kind: 'hang' }),
  /** The same reply after a delay. */
  delayed: (delayMs: number, reply: LoopbackReply): LoopbackReply =>
    reply.kind === 'hang' ? reply : { ...reply, delayMs },
} as const;
