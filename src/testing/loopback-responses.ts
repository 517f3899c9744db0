import type { LoopbackToolCall } from './loopback-reply.js';
import type { SuccessReply } from './loopback-wire.js';

/** What a Responses answer is built from. */
interface Answer {
  readonly text: string;
  readonly reasoning: string | undefined;
  readonly calls: readonly LoopbackToolCall[];
  readonly usage: { readonly input: number; readonly output: number };
}

function answerOf(reply: SuccessReply): Answer {
  const usage = reply.usage ?? { input: 10, output: 5 };
  if (reply.kind === 'empty') return { text: '', reasoning: undefined, calls: [], usage };
  if (reply.kind === 'tool-calls') {
    return { text: reply.text ?? '', reasoning: reply.reasoning, calls: reply.calls, usage };
  }
  return { text: reply.text, reasoning: reply.reasoning, calls: [], usage };
}

/** How the request asked to be answered. */
export interface ResponsesRequestOptions {
  /** The request's `include` asked for `reasoning.encrypted_content` (stateless reasoning, as Codex sends). */
  readonly encryptedReasoning: boolean;
}

/** The request options a Responses request body sets. */
export function responsesRequestOptions(body: unknown): ResponsesRequestOptions {
  const include =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['include'] : undefined;
  return {
    encryptedReasoning: Array.isArray(include) && include.includes('reasoning.encrypted_content'),
  };
}

function argumentsText(call: LoopbackToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** Splits text into a few pieces, as a streaming provider sends it. */
function pieces(text: string): string[] {
  if (text.length <= 4) return text === '' ? [] : [text];
  const size = Math.ceil(text.length / 3);
  return [text.slice(0, size), text.slice(size, 2 * size), text.slice(2 * size)].filter(
    (piece) => piece !== '',
  );
}

type Item = Record<string, unknown>;

/** The output items of an answer: reasoning (when scripted), the message (unless only calls), the calls. */
function outputItems(answer: Answer, id: string, options: ResponsesRequestOptions): Item[] {
  const items: Item[] = [];
  if (answer.reasoning !== undefined) {
    items.push({
      type: 'reasoning',
      id: `rs_${id}`,
      summary: [{ type: 'summary_text', text: answer.reasoning }],
      ...(options.encryptedReasoning ? { encrypted_content: `loopback-encrypted-${id}` } : {}),
    });
  }
  if (answer.text !== '' || answer.calls.length === 0) {
    items.push({
      type: 'message',
      id: `msg_${id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    });
  }
  answer.calls.forEach((call, index) => {
    items.push({
      type: 'function_call',
      id: `fc_${id}_${index}`,
      call_id: call.id ?? `call_loopback_${id}_${index}`,
      name: call.name,
      arguments: argumentsText(call),
      status: 'completed',
    });
  });
  return items;
}

function usageOf(answer: Answer): Item {
  return {
    input_tokens: answer.usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: answer.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: answer.usage.input + answer.usage.output,
  };
}

function responseObject(id: string, model: string, status: string, output: Item[], usage: Item | null): Item {
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: 0,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    store: false,
    usage,
  };
}

/** A non-streaming Responses API body. */
export function responsesBody(
  reply: SuccessReply,
  model: string,
  id: string,
  options: ResponsesRequestOptions,
): unknown {
  const answer = answerOf(reply);
  return responseObject(id, model, 'completed', outputItems(answer, id, options), usageOf(answer));
}

/** The events (`[event name, data]`) of a streamed Responses answer, each with its sequence number. */
export function responsesEvents(
  reply: SuccessReply,
  model: string,
  id: string,
  options: ResponsesRequestOptions,
): [string, unknown][] {
  const answer = answerOf(reply);
  const items = outputItems(answer, id, options);
  const events: [string, Item][] = [];
  const emit = (type: string, data: Item): void => {
    events.push([type, { type, sequence_number: events.length, ...data }]);
  };
  emit('response.created', { response: responseObject(id, model, 'in_progress', [], null) });
  emit('response.in_progress', { response: responseObject(id, model, 'in_progress', [], null) });
  items.forEach((item, index) => {
    streamItem(item, index, emit);
  });
  emit('response.completed', { response: responseObject(id, model, 'completed', items, usageOf(answer)) });
  return events;
}

function streamItem(item: Item, index: number, emit: (type: string, data: Item) => void): void {
  const itemId = item['id'] as string;
  const at = { item_id: itemId, output_index: index };
  switch (item['type']) {
    case 'message': {
      const text = ((item['content'] as Item[])[0]?.['text'] as string | undefined) ?? '';
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const part = { type: 'output_text', text: '', annotations: [] };
      emit('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of pieces(text))
        emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } });
      break;
    }
    case 'function_call': {
      const args = item['arguments'] as string;
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const delta of pieces(args)) emit('response.function_call_arguments.delta', { ...at, delta });
      emit('response.function_call_arguments.done', { ...at, arguments: args });
      break;
    }
    case 'reasoning': {
      const summary = ((item['summary'] as Item[])[0]?.['text'] as string | undefined) ?? '';
      emit('response.output_item.added', { output_index: index, item: { ...item, summary: [] } });
      emit('response.reasoning_summary_part.added', {
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const delta of pieces(summary))
        emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta });
      emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: summary });
      emit('response.reasoning_summary_part.done', {
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: summary },
      });
      break;
    }
  }
  emit('response.output_item.done', { output_index: index, item });
}
