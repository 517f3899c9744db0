import { createHash } from 'node:crypto';
import type { Message } from '../model/message.js';
import type { ToolCallPart } from '../model/part.js';
import type { Transcript } from '../model/transcript.js';

/** A system message. */
export function systemMessage(text: string): Message {
  return { role: 'system', parts: [{ type: 'text', text }] };
}

/** A user message with one text part. */
export function userMessage(text: string): Message {
  return { role: 'user', parts: [{ type: 'text', text }] };
}

/** An assistant message: optional text, then tool calls. */
export function assistantMessage(text: string | undefined, ...calls: ToolCallPart[]): Message {
  return {
    role: 'assistant',
    parts: [...(text === undefined || text === '' ? [] : [{ type: 'text' as const, text }]), ...calls],
  };
}

/**
 * A tool call; `args` is serialized to JSON when it is not a string. The id defaults to `call_<hash>` of the
 * name and arguments, so a builder gives the same transcript on every run and in any test order; the same call
 * made twice in one transcript needs an explicit `id` to be told apart.
 */
export function toolCall(
  name: string,
  args: Readonly<Record<string, unknown>> | string = {},
  id?: string,
): ToolCallPart {
  const serialized = typeof args === 'string' ? args : JSON.stringify(args);
  return {
    type: 'tool-call',
    id: id ?? `call_${createHash('sha256').update(`${name}\0${serialized}`).digest('hex').slice(0, 12)}`,
    name,
    arguments: serialized,
  };
}

/** A tool message answering `call` (or a call id) with text output. */
export function toolResult(
  call: ToolCallPart | string,
  output: string,
  options: { readonly isError?: boolean; readonly name?: string } = {},
): Message {
  const callId = typeof call === 'string' ? call : call.id;
  const name = options.name ?? (typeof call === 'string' ? undefined : call.name);
  return {
    role: 'tool',
    parts: [
      {
        type: 'tool-result',
        callId,
        ...(name === undefined ? {} : { name }),
        content: [{ type: 'text', text: output }],
        ...(options.isError === undefined ? {} : { isError: options.isError }),
      },
    ],
  };
}

/** Options of {@link buildCodingSession}. */
export interface CodingSessionOptions {
  /** Tool steps (one call and its result each). @default 12 */
  readonly steps?: number;
  /** The first user request. */
  readonly task?: string;
  /** The last user message, after the steps. @default a follow-up request */
  readonly finalRequest?: string;
  /** Start with a system prompt. @default true */
  readonly system?: boolean;
}

interface Step {
  readonly say: string;
  readonly call: ToolCallPart;
  readonly output: string;
  readonly isError?: boolean;
}

function stepAt(index: number): Step {
  const n = Math.floor(index / 6);
  const file = `src/module-${n}/handler.ts`;
  switch (index % 6) {
    case 0:
      return {
        say: `I'll read ${file} first.`,
        call: toolCall('Read', { file_path: file }),
        output: `1→export function handle${n}() {}\n2→`,
      };
    case 1:
      return {
        say: 'Let me search for the callers.',
        call: toolCall('Grep', { pattern: `handle${n}`, path: 'src' }),
        output: `src/app.ts:12: handle${n}()\nsrc/routes/index.ts:4: import { handle${n} }`,
      };
    case 2:
      return {
        say: 'Running the tests to see the failure.',
        call: toolCall('Bash', { command: `npm test -- module-${n}` }),
        output: `FAIL test/module-${n}.test.ts\nTypeError: handle${n} is not a function\nExit code 1`,
        isError: true,
      };
    case 3:
      return {
        say: `I decided to export it as a named function because the router imports it by name.`,
        call: toolCall('Edit', {
          file_path: file,
          old_string: 'export function',
          new_string: 'export async function',
        }),
        output: `The file ${file} has been updated.`,
      };
    case 4:
      return {
        say: 'Checking the docs for the router API.',
        call: toolCall('WebFetch', {
          url: `https://example.com/docs/router-${n}`,
          prompt: 'How are handlers registered?',
        }),
        output: 'Handlers are registered by name.',
      };
    default:
      return {
        say: 'Running the tests again.',
        call: toolCall('Bash', { command: `npm test -- module-${n}` }),
        output: `PASS test/module-${n}.test.ts\n1 passed`,
      };
  }
}

/**
 * A realistic, deterministic coding-agent session: a task, then tool steps that read files, search, run tests
 * (which fail, then pass after an edit), fetch documentation, and a final user request. Useful for testing
 * compaction without a corpus.
 */
export function buildCodingSession(options: CodingSessionOptions = {}): Transcript {
  const messages: Message[] = [];
  if (options.system ?? true)
    messages.push(systemMessage('You are a coding agent working in a TypeScript repository.'));
  messages.push(
    userMessage(
      options.task ??
        'Fix the failing handler tests. Never change the public API, and keep the code style as it is.',
    ),
  );
  const steps = options.steps ?? 12;
  for (let index = 0; index < steps; index++) {
    const step = stepAt(index);
    const call = { ...step.call, id: `call_step_${index}` };
    messages.push(assistantMessage(step.say, call));
    messages.push(toolResult(call, step.output, step.isError === undefined ? {} : { isError: step.isError }));
  }
  messages.push(assistantMessage('The handler tests pass now.'));
  messages.push(userMessage(options.finalRequest ?? 'Thanks. Now add a changelog entry for this fix.'));
  return { messages };
}
