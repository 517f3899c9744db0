import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeRecords, encodeClaudeCodeRecords } from '../../src/codecs/claude-code/index.js';
import { convertTranscript } from '../../src/codecs/convert/convert-transcript.js';
import { describeLosses } from '../../src/codecs/convert/losses.js';
import { wrapsArguments } from '../../src/codecs/portable/raw-arguments.js';
import { getCodec } from '../../src/codecs/registry.js';
import { FORMAT_NAMES, type FormatName } from '../../src/model/format.js';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { rec } from './claude-code/helpers.js';

function oneCall(args: string): Transcript {
  return {
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_1', name: 'f', arguments: args }] },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'ok' }] }],
      },
    ],
  };
}

/** Every `tool_use.input` in an Anthropic body or a list of Claude Code records. */
function inputs(wire: unknown): unknown[] {
  const found: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      if (object['type'] === 'tool_use') found.push(object['input']);
      for (const item of Object.values(object)) visit(item);
    }
  };
  visit(wire);
  return found;
}

function callArguments(transcript: Transcript): string[] {
  return transcript.messages.flatMap((message) =>
    message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.arguments] : [])),
  );
}

function wrappedCount(format: FormatName, args: string): number {
  const losses = convertTranscript(oneCall(args), format).losses;
  return losses.find((loss) => loss.kind === 'arguments-wrapped')?.count ?? 0;
}

/** Argument text of every kind a model or a transform leaves: objects, other JSON, broken JSON, blanks. */
const argumentText = fc.oneof(
  fc.json(),
  fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value)),
  fc.string(),
  fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
  fc.constantFrom('', '  ', '{"_raw_arguments": "[1"}', '{"_raw_arguments": "{}"}', '[1, 2]', 'null'),
  fc.string().map((text) => JSON.stringify({ _raw_arguments: text })),
);

describe('tool arguments that are not a JSON object, on wires that need one', () => {
  it('are wrapped exactly when the loss report says so, and read back as the text they were', () => {
    fc.assert(
      fc.property(argumentText, (args) => {
        for (const format of ['anthropic', 'claude-code'] as const) {
          const conversion = convertTranscript(oneCall(args), format);
          const wrapped = inputs(conversion.wire).filter(
            (input) =>
              typeof input === 'object' &&
              input !== null &&
              Object.keys(input).length === 1 &&
              (input as Record<string, unknown>)['_raw_arguments'] === args,
          );
          const reported = conversion.losses.find((loss) => loss.kind === 'arguments-wrapped')?.count ?? 0;
          expect(wrapped.length, format).toBe(wrapsArguments(args) ? 1 : 0);
          expect(reported, format).toBe(wrapped.length);
          const codec = getCodec(format);
          const back = codec.decode(conversion.wire).value;
          const [read] = callArguments(back);
          if (wrapsArguments(args)) expect(read, format).toBe(args);
          else if (args.trim() === '') expect(read, format).toBe('{}');
          else expect(JSON.parse(read as string), format).toEqual(JSON.parse(args));
          // Written again in its own format, the wire is the same.
          expect(inputs(codec.encode(back)), format).toEqual(inputs(conversion.wire));
        }
      }),
    );
  });

  it('are never reported as wrapped by formats that carry argument text as it is', () => {
    for (const format of FORMAT_NAMES) {
      if (format === 'anthropic' || format === 'claude-code') continue;
      expect(wrappedCount(format, '{"cut": "in the mid'), format).toBe(0);
    }
    expect(wrappedCount('anthropic', '{"cut": "in the mid')).toBe(1);
    expect(wrappedCount('anthropic', '{"whole": true}')).toBe(0);
  });

  it('names the wrapping on the loss line convert prints', () => {
    const lines = describeLosses(convertTranscript(oneCall('[1, 2]'), 'anthropic').losses, 'anthropic');
    expect(lines.join('\n')).toMatch(/carried to anthropic in another form: 1 × .*_raw_arguments/);
  });

  it('leaves an object that only looks like the wrapper an object', () => {
    const wire = {
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'f', input: { _raw_arguments: '{"a": 1}' } }],
        },
      ],
    };
    const decoded = getCodec('anthropic').decode(wire).value;
    expect(callArguments(decoded)).toEqual(['{"_raw_arguments":"{\\"a\\": 1}"}']);
  });

  it('stay wrapped when Claude Code rebuilds the record they were read from', () => {
    const envelope = { isSidechain: false, sessionId: 's', cwd: '/w', version: '2.1.0' };
    const records = [
      { ...envelope, uuid: 'p1', parentUuid: null, type: 'user', message: { role: 'user', content: 'go' } },
      {
        ...envelope,
        uuid: 'a1',
        parentUuid: 'p1',
        type: 'assistant',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'f', input: { _raw_arguments: '[1, 2' } }],
        },
      },
    ];
    const { value } = decodeClaudeCodeRecords(records);
    expect(callArguments(value)).toEqual(['[1, 2']);
    const target = value.messages[1] as Message;
    const changed: Message = { ...target, parts: [{ type: 'text', text: 'Calling f.' }, ...target.parts] };
    const out = encodeClaudeCodeRecords({
      ...value,
      messages: value.messages.map((message) => (message === target ? changed : message)),
    });
    const rebuilt = rec(out.find((record) => rec(record)['uuid'] === 'a1'));
    expect(rebuilt['message']['content']).toEqual([
      { type: 'text', text: 'Calling f.' },
      { type: 'tool_use', id: 't1', name: 'f', input: { _raw_arguments: '[1, 2' } },
    ]);
  });
});
