import fc from 'fast-check';
import type { Message } from '../../src/model/message.js';
import type { Part, ToolResultContentPart } from '../../src/model/part.js';

const SNIPPETS = [
  'src/app/main.ts',
  '/etc/nginx/nginx.conf',
  './scripts/run.sh',
  '~/.config/tool/config.yaml',
  'C:\\Users\\dev\\project\\index.js',
  'https://example.com/docs?page=2.',
  'http://localhost:3000/api/v1/items',
  'TypeError: cannot read properties of undefined',
  'Traceback (most recent call last):',
  'npm ERR! code ELIFECYCLE',
  'fatal: not a git repository',
  'Exit code 1',
  'Permission denied',
  'I decided to keep the cache because it is cheaper.',
  "I'll run the tests next.",
  'Never touch the migrations.',
  'and/or application/json 12/05/2024',
  '   12→const x = new Error("boom");',
  '{"error": "", "response": "ok"}',
  '<think>hidden</think>',
  '## Blocked',
  '```\ncode block\n```',
  '\u{1F600} emoji and \uD800 lone surrogate',
];

const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .array(fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 20 })), { maxLength: 6 })
    .map((pieces) => pieces.join(fc.sample(fc.constantFrom(' ', '\n', ', '), 1)[0] ?? ' ')),
);

const toolNames = fc.constantFrom(
  'Bash',
  'Read',
  'Edit',
  'Grep',
  'WebFetch',
  'TodoWrite',
  'get_user',
  'str_replace_editor',
  '',
);

const argumentsText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.json({ maxDepth: 2 }),
  fc
    .record(
      {
        command: text,
        file_path: fc.constantFrom(...SNIPPETS.slice(0, 5), ''),
        url: fc.constantFrom(SNIPPETS[5] ?? '', 'not a url'),
        content: text,
        todos: fc.array(
          fc.record({
            content: fc.string({ maxLength: 20 }),
            status: fc.constantFrom('pending', 'in_progress', 'completed'),
          }),
          {
            maxLength: 3,
          },
        ),
        paths: fc.array(fc.constantFrom(...SNIPPETS.slice(0, 4)), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

const callIds = fc.constantFrom('c1', 'c2', 'c3', 'c4');

const resultContent: fc.Arbitrary<ToolResultContentPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.constant({ type: 'image' as const, source: { kind: 'url' as const, url: 'https://example.com/a.png' } }),
  fc.constant({ type: 'opaque' as const, kind: 'document', value: { a: 1 } }),
);

const part: fc.Arbitrary<Part> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.record({
    type: fc.constant('tool-call' as const),
    id: callIds,
    name: toolNames,
    arguments: argumentsText,
  }),
  fc.record(
    {
      type: fc.constant('tool-result' as const),
      callId: callIds,
      name: toolNames,
      content: fc.array(resultContent, { maxLength: 3 }),
      isError: fc.boolean(),
    },
    { requiredKeys: ['type', 'callId', 'content'] },
  ),
  text.map((value) => ({ type: 'reasoning' as const, text: value })),
  fc.constant({
    type: 'image' as const,
    source: { kind: 'base64' as const, data: 'AAAA', mediaType: 'image/png' },
  }),
  fc.constant({ type: 'opaque' as const, kind: 'server_tool_use', value: null }),
);

/** Arbitrary messages: any role with any parts, including shapes no codec would produce. */
export const messages: fc.Arbitrary<Message[]> = fc.array(
  fc.record({
    role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
    parts: fc.array(part, { maxLength: 4 }),
  }),
  { maxLength: 14 },
);

/** Arbitrary optional strings for the request's side fields. */
export const optionalText = fc.option(text, { nil: undefined });
