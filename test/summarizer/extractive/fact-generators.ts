import fc from 'fast-check';
import type { Message } from '../../../src/model/message.js';
import type { ToolCallPart, ToolResultPart } from '../../../src/model/part.js';

// What tool calls, outputs and prose hold, and what breaks scans of them: long lines past the 200 characters a
// first line keeps, runs of white space of every kind (at a cut too), line ends, surrogates alone and in pairs,
// exit codes, error heads, test summaries, sentence ends, code spans, fences, tags, state lines.
const PIECES = [
  'a',
  'Z',
  '9',
  '.',
  '!',
  '?',
  ',',
  '"',
  "'",
  '`',
  '(',
  ')',
  '<',
  '>',
  '-',
  '*',
  '#',
  '/',
  '\\',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r',
  '\r\n',
  '\v',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u3000',
  'é',
  '\uD83D\uDE00',
  '\uD800',
  '\uDC00',
  ' '.repeat(150),
  'x'.repeat(199),
  'word '.repeat(45),
  'exit code 1',
  'Exit status: 2',
  'exited with code -3',
  'returncode=0',
  'exit_code: 7',
  'Error: boom',
  'TypeError: undefined',
  'Traceback (most recent call last):',
  'failed',
  '<tool_use_error>',
  '410 tests, 0 failures',
  '3 passed',
  'File created successfully',
  'updated',
  'I will run the tests next. ',
  "Let's fix it because the cache is stale. ",
  'The root cause is the retry. ',
  'Never touch the migrations.',
  'Can you check?',
  '`build_index/1`',
  '```\ncode\n```',
  '```',
  '<think>hidden</think>',
  '- item',
  '12. step',
  '## Heading',
  '(Current directory: /repo)',
  '(Open file: src/a.ts)',
  'running in background with ID: job_12',
  'Running In Background With id: x',
  "Switched to a new branch 'fix'",
  'Still need to:',
  'src/app/main.ts',
  'https://example.com/docs',
  'def handle_call',
  'const cacheSize = 1',
  'git commit -m "Fix the cache"',
  'npm test',
  'cd /repo && make',
];

/** Text made of {@link PIECES}, or any string. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((pieces) => pieces.join('')),
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

const TOOL_NAMES = [
  'Bash',
  'bash',
  'Read',
  'Edit',
  'MultiEdit',
  'Write',
  'write_file',
  'apply_patch',
  'Grep',
  'search',
  'list_dir',
  'WebFetch',
  'TodoWrite',
  'update_plan',
  'Task',
  'str_replace_editor',
  'get_user_details',
  '',
];

const ARGUMENT_KEYS = [
  'command',
  'cmd',
  'file_path',
  'path',
  'paths',
  'url',
  'query',
  'pattern',
  'old_string',
  'new_string',
  'old_str',
  'new_str',
  'content',
  'file_text',
  'patch',
  'input',
  'description',
  'prompt',
  'user_id',
  'constructor',
];

const argumentValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({ content: hostileText, status: fc.constantFrom('pending', 'in_progress', 'completed') }),
      { maxLength: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.record({ old_string: hostileText, new_string: hostileText }), { maxLength: 3 }),
  },
);

const argumentsText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .dictionary(fc.constantFrom(...ARGUMENT_KEYS), argumentValue, { maxKeys: 4 })
      .map((value) => JSON.stringify(value)),
  },
  { weight: 1, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
);

/** A tool call of any name with arguments of the shapes agents write, and hostile text in them. */
export const toolCallPart: fc.Arbitrary<ToolCallPart> = fc.record({
  type: fc.constant('tool-call' as const),
  id: fc.constantFrom('c1', 'c2', 'c3'),
  name: fc.constantFrom(...TOOL_NAMES),
  arguments: argumentsText,
});

/** A result for the call `c1`: text parts (and others) of hostile text, an error or not. */
export const toolResultPart: fc.Arbitrary<ToolResultPart> = fc.record(
  {
    type: fc.constant('tool-result' as const),
    callId: fc.constantFrom('c1', 'c2', 'c3'),
    content: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: hostileText.map((text) => ({ type: 'text' as const, text })) },
        {
          weight: 1,
          arbitrary: fc.constant({
            type: 'image' as const,
            source: { kind: 'url' as const, url: 'https://example.com/a.png' },
          }),
        },
      ),
      { maxLength: 3 },
    ),
    isError: fc.boolean(),
  },
  { requiredKeys: ['type', 'callId', 'content'] },
);

/** Turns of a run: prompts, assistant text with tool calls, tool results, in any order. */
export const runMessages: fc.Arbitrary<Message[]> = fc.array(
  fc.oneof(
    hostileText.map((text): Message => ({ role: 'user', parts: [{ type: 'text', text }] })),
    fc.tuple(fc.option(hostileText, { nil: undefined }), fc.array(toolCallPart, { maxLength: 2 })).map(
      ([text, calls]): Message => ({
        role: 'assistant',
        parts: [...(text === undefined ? [] : [{ type: 'text' as const, text }]), ...calls],
      }),
    ),
    fc
      .array(toolResultPart, { minLength: 1, maxLength: 2 })
      .map((parts): Message => ({ role: 'tool', parts })),
  ),
  { maxLength: 12 },
);
