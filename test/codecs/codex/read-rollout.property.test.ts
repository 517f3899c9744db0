import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRollout, rolloutRecords } from '../../../src/codecs/codex/read-rollout.js';
import { referenceReadRollout } from './read-rollout-reference.js';

const text = fc.constantFrom(
  'fix it',
  'summary A',
  'go on',
  '<environment_context>cwd</environment_context>',
);
const userItem = text.map((said) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text: said }],
}));
const assistantItem = text.map((said) => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text: said }],
}));
const callItem = fc.constant({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c' });
const line = (type: string, payload: unknown) => ({ timestamp: '2026-01-01T00:00:00Z', type, payload });

// Every kind of line that moves the conversation: items, prompts logged only as events, compactions with and
// without a replacement history (plain or encrypted), rollbacks of any size, token counts. Compactions and
// rollbacks are frequent, so rollbacks often cut into what an early compaction kept.
const itemLine = fc.oneof(userItem, assistantItem, callItem).map((item) => line('response_item', item));
const eventLine = text.map((said) => line('event_msg', { type: 'user_message', message: said, images: [] }));
const compactedLine = fc
  .record({
    message: fc.constantFrom('summary A', '', 'other'),
    replacement: fc.option(
      fc.array(
        fc.oneof(userItem, assistantItem, fc.constant({ type: 'compaction', encrypted_content: 'x' })),
        {
          maxLength: 3,
        },
      ),
      { nil: undefined },
    ),
  })
  .map(({ message, replacement }) =>
    line('compacted', {
      message,
      ...(replacement === undefined ? {} : { replacement_history: replacement }),
    }),
  );
const rollbackLine = fc
  .integer({ min: -1, max: 4 })
  .map((turns) => line('event_msg', { type: 'thread_rolled_back', num_turns: turns }));
const tokenLine = fc
  .integer({ min: 1, max: 900 })
  .map((input) =>
    line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: input } } }),
  );
const lineArb = fc.oneof(
  { arbitrary: itemLine, weight: 3 },
  { arbitrary: eventLine, weight: 2 },
  { arbitrary: compactedLine, weight: 2 },
  { arbitrary: rollbackLine, weight: 2 },
  { arbitrary: tokenLine, weight: 1 },
);

describe('readRollout', () => {
  it('reads every view exactly as the version that copied the history at each compaction and rollback', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), (lines) => {
        const records = rolloutRecords([
          line('session_meta', { id: 's', instructions: 'be brief' }),
          ...lines,
        ]);
        for (const view of ['full', 'context'] as const) {
          expect(readRollout(records, view)).toEqual(referenceReadRollout(records, view));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
