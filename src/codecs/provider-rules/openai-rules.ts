import {
  checkKeys,
  isObject,
  problem,
  requestMessages,
  type WireCheckOptions,
  type WireProblem,
  type WireRecord,
  type WireScope,
} from './wire-problem.js';

/** Keys a Chat Completions request or fine-tuning line may hold next to `messages`. */
const REQUEST_KEYS = new Set([
  'messages',
  'model',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'temperature',
  'top_p',
  'n',
  'stream',
  'stream_options',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'response_format',
  'seed',
  'metadata',
  'store',
  'reasoning_effort',
  'modalities',
  'audio',
  'prediction',
  'service_tier',
  'web_search_options',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
]);

const MESSAGE_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  // `weight` is accepted on assistant messages of fine-tuning lines.
  assistant: new Set([
    'role',
    'content',
    'name',
    'tool_calls',
    'function_call',
    'refusal',
    'audio',
    'weight',
  ]),
  tool: new Set(['role', 'content', 'tool_call_id']),
  function: new Set(['role', 'content', 'name']),
};

/** Content part types each role may send. */
const PART_TYPES: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['text']),
  developer: new Set(['text']),
  user: new Set(['text', 'image_url', 'input_audio', 'file']),
  assistant: new Set(['text', 'refusal']),
  tool: new Set(['text']),
  function: new Set(['text']),
};

const PART_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  refusal: new Set(['type', 'refusal']),
  image_url: new Set(['type', 'image_url']),
  input_audio: new Set(['type', 'input_audio']),
  file: new Set(['type', 'file']),
};

/**
 * Every way an OpenAI Chat Completions request (or fine-tuning line, `{messages, tools?}`) would be rejected,
 * written from the API's rules rather than from the codec: the envelope's keys, each message's role and keys,
 * content shapes per role, tool call shapes, every call answered by a `tool` message right after it (and only
 * then), no result without its call, no duplicate call id in one message.
 */
export function openaiWireProblems(wire: unknown, options: WireCheckOptions = {}): WireProblem[] {
  const out: WireProblem[] = [];
  const scope = options.scope ?? 'request';
  const list = requestMessages(wire, scope, REQUEST_KEYS, out);
  if (list === undefined) return out;
  let open: { ids: Set<string>; answered: Set<string>; index: number } | undefined;
  const closeOpen = (at: number): void => {
    if (open === undefined) return;
    for (const id of open.ids)
      if (!open.answered.has(id))
        problem(
          out,
          'unanswered-call',
          `messages[${open.index}]`,
          `tool call ${id} gets no tool message before message ${at}`,
        );
    open = undefined;
  };
  list.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message)) {
      problem(out, 'bad-content', path, 'a message is not a JSON object');
      return;
    }
    const role = message['role'];
    if (typeof role !== 'string' || MESSAGE_KEYS[role] === undefined) {
      problem(out, 'bad-role', path, `role ${JSON.stringify(role ?? null)} is not an OpenAI role`);
      return;
    }
    checkKeys(scope, message, MESSAGE_KEYS[role] as ReadonlySet<string>, path, out, `a ${role} message`);
    checkContent(scope, message, role, path, out);
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (typeof id !== 'string' || id === '')
        problem(out, 'bad-tool-call', path, 'a tool message has no tool_call_id');
      else if (open === undefined || !open.ids.has(id))
        problem(
          out,
          'orphan-result',
          path,
          `tool message ${id} answers no call of the assistant message before it`,
        );
      else open.answered.add(id);
      return;
    }
    if (role === 'function') return;
    closeOpen(index);
    if (role === 'assistant') {
      const ids = checkToolCalls(scope, message, path, out);
      if (ids.size > 0) open = { ids, answered: new Set(), index };
    }
  });
  if (options.trailingCalls !== false) closeOpen(list.length);
  return out;
}

function checkContent(
  scope: WireScope,
  message: WireRecord,
  role: string,
  path: string,
  out: WireProblem[],
): void {
  const content = message['content'];
  const hasCalls = message['tool_calls'] !== undefined || message['function_call'] !== undefined;
  if (content === undefined || content === null) {
    if (role === 'assistant' && (hasCalls || message['refusal'] !== undefined)) return;
    if (role === 'function') return;
    problem(out, 'empty-content', path, `a ${role} message has no content`);
    return;
  }
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    problem(out, 'bad-content', `${path}.content`, 'content is neither a string nor a list of parts');
    return;
  }
  if (content.length === 0 && !(role === 'assistant' && hasCalls))
    problem(out, 'empty-content', `${path}.content`, `a ${role} message has an empty content list`);
  content.forEach((part: unknown, at) => {
    const where = `${path}.content[${at}]`;
    const type = isObject(part) ? part['type'] : undefined;
    if (!isObject(part) || typeof type !== 'string' || !(PART_TYPES[role] as ReadonlySet<string>).has(type)) {
      problem(
        out,
        'bad-block',
        where,
        `a ${role} message cannot hold a content part of type ${JSON.stringify(type ?? null)}`,
      );
      return;
    }
    checkKeys(scope, part, PART_KEYS[type] as ReadonlySet<string>, where, out, `a ${type} part`);
    if (type === 'text' && typeof part['text'] !== 'string')
      problem(out, 'bad-block', where, 'a text part has no text');
    if (
      type === 'image_url' &&
      !(isObject(part['image_url']) && typeof part['image_url']['url'] === 'string')
    )
      problem(out, 'bad-block', where, 'an image_url part has no url');
  });
}

/** Checks `tool_calls` / `function_call` and returns the ids the following tool messages must answer. */
function checkToolCalls(
  scope: WireScope,
  message: WireRecord,
  path: string,
  out: WireProblem[],
): Set<string> {
  const ids = new Set<string>();
  const calls = message['tool_calls'];
  if (calls === undefined) return ids;
  if (!Array.isArray(calls) || calls.length === 0) {
    problem(out, 'bad-tool-call', `${path}.tool_calls`, 'tool_calls is not a non-empty list');
    return ids;
  }
  calls.forEach((call: unknown, at) => {
    const where = `${path}.tool_calls[${at}]`;
    if (!isObject(call)) {
      problem(out, 'bad-tool-call', where, 'a tool call is not an object');
      return;
    }
    checkKeys(scope, call, CALL_KEYS, where, out, 'a tool call');
    const fn = call['function'];
    const id = call['id'];
    if (typeof id !== 'string' || id === '') problem(out, 'bad-tool-call', where, 'a tool call has no id');
    else if (ids.has(id))
      problem(out, 'duplicate-tool-id', where, `tool call id ${id} is used twice in one message`);
    else ids.add(id);
    if (call['type'] !== 'function')
      problem(out, 'bad-tool-call', where, 'a tool call\'s type is not "function"');
    if (!isObject(fn) || typeof fn['name'] !== 'string' || typeof fn['arguments'] !== 'string')
      problem(
        out,
        'bad-tool-call',
        where,
        'a tool call needs function.name and function.arguments as strings',
      );
    else checkKeys(scope, fn, FUNCTION_KEYS, `${where}.function`, out, 'a tool call function');
  });
  return ids;
}

const CALL_KEYS = new Set(['id', 'type', 'function']);
const FUNCTION_KEYS = new Set(['name', 'arguments']);
