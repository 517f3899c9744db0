import type { LoopbackReply, LoopbackToolCall } from './loopback-reply.js';

/** The wire protocols the loopback server speaks: OpenAI Chat Completions, Anthropic Messages, OpenAI Responses. */
export type LoopbackProtocol = 'openai' | 'anthropic' | 'openai-responses';

/** The replies that produce a completion. */
export type SuccessReply = Exclude<LoopbackReply, { kind: 'error' | 'malformed' | 'cut' | 'hang' }>;

interface Content {
  readonly text: string;
  readonly reasoning?: string;
  readonly calls: readonly LoopbackToolCall[];
  readonly usage: { readonly input: number; readonly output: number };
}

function contentOf(reply: SuccessReply): Content {
  const usage = reply.usage ?? { input: 10, output: 5 };
  if (reply.kind === 'empty') return { text: '', calls: [], usage };
  if (reply.kind === 'tool-calls') {
    const reasoning = reply.reasoning === undefined ? {} : { reasoning: reply.reasoning };
    return { text: reply.text ?? '', calls: reply.calls, usage, ...reasoning };
  }
  return {
    text: reply.text,
    calls: [],
    usage,
    ...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
  };
}

function argumentsText(call: LoopbackToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function callId(call: LoopbackToolCall, index: number): string {
  return call.id ?? `call_loopback_${index}`;
}

/** Splits text into a few pieces, as a streaming provider sends it. */
function pieces(text: string): string[] {
  if (text.length <= 4) return text === '' ? [] : [text];
  const size = Math.ceil(text.length / 3);
  return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)].filter(
    (piece) => piece !== '',
  );
}

/** A non-streaming OpenAI Chat Completions body. */
export function openaiCompletion(reply: SuccessReply, model: string, id: string): unknown {
  const content = contentOf(reply);
  const toolCalls = content.calls.map((call, index) => ({
    id: callId(call, index),
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: content.text,
          ...(content.reasoning === undefined ? {} : { reasoning_content: content.reasoning }),
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        finish_reason: toolCalls.length === 0 ? 'stop' : 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: content.usage.input,
      completion_tokens: content.usage.output,
      total_tokens: content.usage.input + content.usage.output,
    },
  };
}

/** The `data:` payloads of an OpenAI Chat Completions stream (without the final `[DONE]`). */
export function openaiChunks(reply: SuccessReply, model: string, id: string): unknown[] {
  const content = contentOf(reply);
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(content.reasoning ?? '')) out.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(content.text)) out.push(chunk({ content: piece }));
  content.calls.forEach((call, index) => {
    out.push(
      chunk({
        tool_calls: [
          { index, id: callId(call, index), type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of pieces(argumentsText(call))) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  out.push(chunk({}, content.calls.length === 0 ? 'stop' : 'tool_calls'));
  out.push({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [],
    usage: {
      prompt_tokens: content.usage.input,
      completion_tokens: content.usage.output,
      total_tokens: content.usage.input + content.usage.output,
    },
  });
  return out;
}

function anthropicBlocks(content: Content): unknown[] {
  const blocks: unknown[] = [];
  if (content.reasoning !== undefined) {
    blocks.push({ type: 'thinking', thinking: content.reasoning, signature: 'loopback-signature' });
  }
  if (content.text !== '' || content.calls.length === 0) blocks.push({ type: 'text', text: content.text });
  content.calls.forEach((call, index) => {
    const input = typeof call.arguments === 'string' ? safeParse(call.arguments) : call.arguments;
    blocks.push({ type: 'tool_use', id: callId(call, index), name: call.name, input });
  });
  return blocks;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** A non-streaming Anthropic Messages body. */
export function anthropicMessage(reply: SuccessReply, model: string, id: string): unknown {
  const content = contentOf(reply);
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: anthropicBlocks(content),
    stop_reason: content.calls.length === 0 ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: content.usage.input, output_tokens: content.usage.output },
  };
}

/** The events (`[event name, data]`) of an Anthropic Messages stream. */
export function anthropicEvents(reply: SuccessReply, model: string, id: string): [string, unknown][] {
  const content = contentOf(reply);
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: content.usage.input, output_tokens: 1 },
        },
      },
    ],
  ];
  anthropicBlocks(content).forEach((block, index) => {
    const typed = block as { type: string; text?: string; thinking?: string; input?: unknown };
    const start =
      typed.type === 'text'
        ? { type: 'text', text: '' }
        : typed.type === 'thinking'
          ? { type: 'thinking', thinking: '' }
          : { ...typed, input: {} };
    events.push(['content_block_start', { type: 'content_block_start', index, content_block: start }]);
    const delta = (payload: unknown) =>
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: payload }]);
    if (typed.type === 'text')
      for (const piece of pieces(typed.text ?? '')) delta({ type: 'text_delta', text: piece });
    else if (typed.type === 'thinking') {
      for (const piece of pieces(typed.thinking ?? '')) delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: 'loopback-signature' });
    } else
      for (const piece of pieces(JSON.stringify(typed.input)))
        delta({ type: 'input_json_delta', partial_json: piece });
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: content.calls.length === 0 ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: content.usage.output },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events;
}

const OPENAI_ERRORS: Readonly<Record<number, { type: string; code: string | null; message: string }>> = {
  400: { type: 'invalid_request_error', code: null, message: 'The request is invalid.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  402: {
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it.',
  },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request.',
  },
  503: {
    type: 'server_error',
    code: null,
    message: 'The engine is currently overloaded, please try again later.',
  },
};

const ANTHROPIC_ERRORS: Readonly<Record<number, { type: string; message: string }>> = {
  400: { type: 'invalid_request_error', message: 'The request is invalid.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' },
  403: {
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  404: { type: 'not_found_error', message: 'model: not found' },
  429: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
  500: { type: 'api_error', message: 'Internal server error.' },
  503: { type: 'api_error', message: 'Service unavailable.' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/** A provider-shaped error body for a status, with the reply's message and code when it sets them. */
export function errorBody(
  protocol: LoopbackProtocol,
  status: number,
  message: string | undefined,
  code: string | undefined,
): unknown {
  if (protocol === 'anthropic') {
    const known = ANTHROPIC_ERRORS[status] ?? { type: 'api_error', message: `HTTP ${status}` };
    return { type: 'error', error: { type: code ?? known.type, message: message ?? known.message } };
  }
  const known = OPENAI_ERRORS[status] ?? { type: 'server_error', code: null, message: `HTTP ${status}` };
  return {
    error: {
      message: message ?? known.message,
      type: code ?? known.type,
      param: null,
      code: code ?? known.code,
    },
  };
}
