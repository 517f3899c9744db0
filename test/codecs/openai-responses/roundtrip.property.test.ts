import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRollout, encodeRollout } from '../../../src/codecs/codex/index.js';
import {
  decodeResponses,
  encodeResponses,
  verifyResponsesInput,
} from '../../../src/codecs/openai-responses/index.js';
import { compact } from '../../../src/engines/compressor/create-compressor.js';
import { stripOrigins } from '../../../src/model/origins.js';
import { verifyTranscript } from '../../../src/model/verify.js';

type Item = Record<string, unknown>;

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '');
const words = fc
  .array(fc.constantFrom('read', 'src/app.ts', 'npm test', 'error:', 'fixed', 'ok', 'the', 'file'), {
    minLength: 3,
    maxLength: 30,
  })
  .map((list) => list.join(' '));

const userItem = fc.oneof(
  text.map((value): Item => ({ role: 'user', content: value })),
  fc.tuple(text, fc.boolean()).map(
    ([value, image]): Item => ({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: value },
        ...(image
          ? [{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' }]
          : []),
      ],
    }),
  ),
);

type CallKind = 'function' | 'custom' | 'shell';

/** One model turn: optional reasoning and text, then calls, then their outputs (in call order or reversed). */
const modelTurn = fc
  .record({
    reasoning: fc.option(fc.tuple(words, fc.boolean(), fc.boolean()), { nil: undefined }),
    say: fc.option(words, { nil: undefined }),
    calls: fc.array(fc.tuple(fc.constantFrom<CallKind>('function', 'custom', 'shell'), words), {
      maxLength: 3,
    }),
    search: fc.boolean(),
    reversed: fc.boolean(),
  })
  .filter((turn) => turn.say !== undefined || turn.calls.length > 0);

type Turn = typeof modelTurn extends fc.Arbitrary<infer T> ? T : never;

function turnItems(turn: Turn, at: number): Item[] {
  const items: Item[] = [];
  if (turn.reasoning !== undefined) {
    const [summary, withId, encrypted] = turn.reasoning;
    items.push({
      type: 'reasoning',
      ...(withId ? { id: `rs_${at}` } : {}),
      summary: [{ type: 'summary_text', text: summary }],
      ...(encrypted ? { encrypted_content: `gAAAAB${at}==` } : {}),
    });
  }
  if (turn.search)
    items.push({
      type: 'web_search_call',
      id: `ws_${at}`,
      status: 'completed',
      action: { type: 'search', query: 'q' },
    });
  if (turn.say !== undefined) {
    items.push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.say, annotations: [] }],
    });
  }
  const outputs: Item[] = [];
  turn.calls.forEach(([kind, body], index) => {
    const id = `call_${at}_${index}`;
    if (kind === 'function') {
      items.push({
        type: 'function_call',
        call_id: id,
        name: 'shell',
        arguments: JSON.stringify({ cmd: body }),
      });
      outputs.push({ type: 'function_call_output', call_id: id, output: `${body}\nexit 0` });
    } else if (kind === 'custom') {
      items.push({
        type: 'custom_tool_call',
        call_id: id,
        name: 'apply_patch',
        input: `*** Begin Patch\n${body}`,
      });
      outputs.push({ type: 'custom_tool_call_output', call_id: id, output: 'Done' });
    } else {
      items.push({
        type: 'local_shell_call',
        id: `lsh_${at}_${index}`,
        call_id: id,
        status: 'completed',
        action: { type: 'exec', command: ['sh', '-c', body] },
      });
      outputs.push({ type: 'local_shell_call_output', call_id: id, output: body });
    }
  });
  return [...items, ...(turn.reversed ? outputs.reverse() : outputs)];
}

/** A valid Responses conversation: instructions and alternating prompts and model turns. */
const conversation = fc
  .tuple(
    fc.option(text, { nil: undefined }),
    fc.array(fc.tuple(userItem, fc.array(modelTurn, { minLength: 1, maxLength: 3 })), {
      minLength: 1,
      maxLength: 6,
    }),
  )
  .map(([instructions, turns]) => {
    const input: Item[] = [];
    let at = 0;
    for (const [user, model] of turns) {
      input.push(user);
      for (const turn of model) input.push(...turnItems(turn, at++));
    }
    return { model: 'gpt-test', ...(instructions === undefined ? {} : { instructions }), input };
  });

describe('openai-responses codec properties', () => {
  it('decodes valid conversations into valid transcripts and re-encodes them from parts alone', () => {
    fc.assert(
      fc.property(conversation, (request) => {
        expect(verifyResponsesInput(request.input)).toEqual([]);
        const decoded = decodeResponses(request);
        expect(decoded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
        expect(verifyTranscript(decoded.value, { provider: 'openai' })).toEqual([]);
        expect(encodeResponses(stripOrigins(decoded.value))).toEqual(request);
      }),
      { numRuns: 200 },
    );
  });

  it('carries the same conversation through a Codex rollout and back', () => {
    fc.assert(
      fc.property(conversation, (request) => {
        const transcript = decodeResponses(request).value;
        const lines = encodeRollout(stripOrigins(transcript));
        const back = decodeRollout(lines).value;
        expect(encodeResponses(back)).toEqual({ instructions: request.instructions, input: request.input });
      }),
      { numRuns: 100 },
    );
  });

  it('compacts into an item list the API accepts', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, async (request) => {
        const { transcript } = await compact(decodeResponses(request).value, {
          contextLength: 2_000,
          force: true,
        });
        const wire = encodeResponses(transcript) as { input: unknown[] };
        expect(verifyResponsesInput(wire.input)).toEqual([]);
        expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
