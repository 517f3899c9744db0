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

/** Keys a Messages API request (or a `{system, messages}` dataset line) may hold. */
const REQUEST_KEYS = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_k',
  'top_p',
  'tools',
  'tool_choice',
  'thinking',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
]);

const MESSAGE_KEYS = new Set(['role', 'content']);

/** Block keys per type (`cache_control` everywhere it is accepted). */
const BLOCK_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text', 'cache_control', 'citations']),
  image: new Set(['type', 'source', 'cache_control']),
  document: new Set(['type', 'source', 'cache_control', 'citations', 'context', 'title']),
  search_result: new Set(['type', 'source', 'title', 'content', 'cache_control', 'citations']),
  tool_use: new Set(['type', 'id', 'name', 'input', 'cache_control']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
};

/** Server-side blocks that travel back verbatim; their inner keys are the provider's business. */
export const ANTHROPIC_SERVER_BLOCKS: ReadonlySet<string> = new Set([
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'tool_reference',
]);

const ASSISTANT_ONLY = new Set(['tool_use', 'thinking', 'redacted_thinking']);
const USER_ONLY = new Set(['tool_result', 'image', 'document', 'search_result']);

/** Anthropic's pattern for `tool_use.id` (and so `tool_result.tool_use_id`). */
export const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * Every way an Anthropic Messages request (or `{system, messages}` dataset line) would be rejected, written from
 * the API's rules rather than from the codec: keys of the request, messages and blocks; `system` as a string or
 * text blocks; user first and roles alternating; no empty content or whitespace-only text; block types per role;
 * `tool_use` ids matching `^[a-zA-Z0-9_-]+$` and unique in the request, `input` an object; `tool_result` blocks
 * first in the user message right after the call, answering exactly that message's calls; thinking signed.
 */
export function anthropicWireProblems(wire: unknown, options: WireCheckOptions = {}): WireProblem[] {
  const out: WireProblem[] = [];
  const scope = options.scope ?? 'request';
  const list = requestMessages(wire, scope, REQUEST_KEYS, out, (request) =>
    checkSystem(scope, request['system'], out),
  );
  if (list === undefined) return out;
  const seen = new Set<string>();
  let calls: string[] = [];
  let callsAt = -1;
  list.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message)) {
      problem(out, 'bad-content', path, 'a message is not a JSON object');
      return;
    }
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant') {
      problem(out, 'bad-role', path, `role ${JSON.stringify(role ?? null)} is not user or assistant`);
      return;
    }
    checkKeys(scope, message, MESSAGE_KEYS, path, out, 'a message');
    if (index === 0 && role !== 'user')
      problem(out, 'first-message', path, 'the first message is not from the user');
    const previous = index > 0 ? list[index - 1] : undefined;
    if (isObject(previous) && previous['role'] === role)
      problem(out, 'alternation', path, `messages ${index - 1} and ${index} are both ${role} messages`);
    const blocks = blocksOf(message['content'], path, out);
    blocks.forEach((block, at) => {
      checkBlock(scope, block, role, `${path}.content[${at}]`, out);
    });
    const results = blocks.filter((block) => block['type'] === 'tool_result');
    if (role === 'user') {
      const firstOther = blocks.findIndex((block) => block['type'] !== 'tool_result');
      if (firstOther !== -1 && blocks.slice(firstOther).some((block) => block['type'] === 'tool_result'))
        problem(out, 'misplaced-result', path, 'tool_result blocks must come before any other block');
      const answered = new Set<string>();
      const called = new Set(calls);
      for (const block of results) {
        const id = String(block['tool_use_id']);
        if (!called.has(id))
          problem(
            out,
            'orphan-result',
            path,
            `tool_result ${id} answers no tool_use of the message before it`,
          );
        answered.add(id);
      }
      unanswered(
        calls.filter((id) => !answered.has(id)),
        callsAt,
        ' in the next message',
        out,
      );
      calls = [];
      return;
    }
    unanswered(calls, callsAt, ' in the next message', out);
    calls = [];
    callsAt = index;
    for (const block of blocks) {
      if (block['type'] !== 'tool_use') continue;
      const id = block['id'];
      if (typeof id !== 'string') continue;
      if (seen.has(id))
        problem(out, 'duplicate-tool-id', path, `tool_use id ${id} is used twice in the request`);
      seen.add(id);
      calls.push(id);
    }
  });
  if (options.trailingCalls !== false) unanswered(calls, callsAt, '', out);
  return out;
}

/** One `unanswered-call` problem per call id of the assistant message at `callsAt`. */
function unanswered(ids: readonly string[], callsAt: number, when: string, out: WireProblem[]): void {
  for (const id of ids)
    problem(out, 'unanswered-call', `messages[${callsAt}]`, `tool_use ${id} gets no tool_result${when}`);
}

function checkSystem(scope: WireScope, system: unknown, out: WireProblem[]): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) {
    problem(out, 'bad-content', 'system', 'system is neither a string nor a list of text blocks');
    return;
  }
  system.forEach((block: unknown, at) => {
    const where = `system[${at}]`;
    if (!isObject(block) || block['type'] !== 'text') {
      problem(out, 'bad-block', where, 'a system block is not a text block');
      return;
    }
    checkKeys(scope, block, BLOCK_KEYS['text'] as ReadonlySet<string>, where, out, 'a text block');
    if (typeof block['text'] !== 'string' || block['text'].trim() === '')
      problem(out, 'empty-content', where, 'a system text block is empty');
  });
}

function blocksOf(content: unknown, path: string, out: WireProblem[]): WireRecord[] {
  if (typeof content === 'string') {
    if (content.trim() === '') problem(out, 'empty-content', path, 'the message content is empty or blank');
    return [];
  }
  if (!Array.isArray(content)) {
    problem(out, 'bad-content', path, 'content is neither a string nor a list of blocks');
    return [];
  }
  if (content.length === 0) problem(out, 'empty-content', path, 'the message has no blocks');
  return content.map((block: unknown) => (isObject(block) ? block : {}));
}

function checkBlock(
  scope: WireScope,
  block: WireRecord,
  role: 'user' | 'assistant',
  where: string,
  out: WireProblem[],
): void {
  const type = block['type'];
  if (typeof type !== 'string') {
    problem(out, 'bad-block', where, 'a content block has no type');
    return;
  }
  if (ANTHROPIC_SERVER_BLOCKS.has(type)) return;
  const keys = BLOCK_KEYS[type];
  if (keys === undefined) {
    problem(out, 'bad-block', where, `block type ${JSON.stringify(type)} is not an Anthropic block`);
    return;
  }
  if ((role === 'user' && ASSISTANT_ONLY.has(type)) || (role === 'assistant' && USER_ONLY.has(type))) {
    problem(out, 'bad-block', where, `a ${role} message cannot hold a ${type} block`);
  }
  checkKeys(scope, block, keys, where, out, `a ${type} block`);
  switch (type) {
    case 'text':
      if (typeof block['text'] !== 'string' || block['text'].trim() === '')
        problem(out, 'empty-content', where, 'a text block is empty or blank');
      return;
    case 'tool_use': {
      checkToolId(block['id'], 'tool_use id', where, out);
      if (!isObject(block['input'])) problem(out, 'bad-tool-call', where, 'tool_use input is not an object');
      if (typeof block['name'] !== 'string' || block['name'] === '')
        problem(out, 'bad-tool-call', where, 'tool_use has no name');
      return;
    }
    case 'tool_result': {
      checkToolId(block['tool_use_id'], 'tool_use_id', where, out);
      checkResultContent(block['content'], where, out);
      return;
    }
    case 'thinking':
      if (typeof block['signature'] !== 'string' || block['signature'] === '')
        problem(out, 'unsigned-thinking', where, 'a thinking block has no signature');
      return;
    default:
      return;
  }
}

function checkToolId(id: unknown, what: string, where: string, out: WireProblem[]): void {
  if (typeof id !== 'string' || !ANTHROPIC_TOOL_ID.test(id))
    problem(
      out,
      'bad-tool-id',
      where,
      `${what} ${JSON.stringify(id ?? null)} does not match ^[a-zA-Z0-9_-]+$`,
    );
}

const RESULT_BLOCKS = new Set(['text', 'image', 'document', 'search_result', 'tool_reference']);

function checkResultContent(content: unknown, where: string, out: WireProblem[]): void {
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) {
    problem(out, 'bad-content', where, 'tool_result content is neither a string nor a list of blocks');
    return;
  }
  content.forEach((inner: unknown, at) => {
    const type = isObject(inner) ? inner['type'] : undefined;
    if (typeof type !== 'string' || !RESULT_BLOCKS.has(type))
      problem(
        out,
        'bad-block',
        `${where}.content[${at}]`,
        `a tool_result cannot hold a ${JSON.stringify(type ?? null)} block`,
      );
    else if (
      type === 'text' &&
      isObject(inner) &&
      (typeof inner['text'] !== 'string' || inner['text'].trim() === '')
    )
      problem(
        out,
        'empty-content',
        `${where}.content[${at}]`,
        'a text block inside a tool_result is empty or blank',
      );
  });
}
