import '../support/property-seed.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { classifyMessages } from '../../src/report/classify-messages.js';
import { renderReportHtml } from '../../src/report/render-report.js';
import { cardsOf, compactFor, expectWellFormed, ruleCounts } from './support.js';

// Text rich in markup characters, entities, quotes, control characters and astral/surrogate code units.
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .array(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '"',
        "'",
        '</pre>',
        '<script>',
        '&amp;',
        '\u0000',
        '\ud83d',
        'x',
        ' ',
        '\n',
      ),
      {
        maxLength: 12,
      },
    )
    .map((pieces) => pieces.join('')),
);

/** One assistant step: a call and its result (sometimes failed), or plain text. */
const step = fc
  .record({ say: nasty, name: nasty, args: nasty, output: nasty, failed: fc.boolean(), long: fc.boolean() })
  .chain(({ say, name, args, output, failed, long }) =>
    fc.constant<Message[]>([
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: say },
          {
            type: 'tool-call',
            id: `c${say.length}-${output.length}`,
            name: name || 't',
            arguments: JSON.stringify({ args }),
          },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: `c${say.length}-${output.length}`,
            name,
            content: [{ type: 'text', text: long ? `${output}\n`.repeat(60) : output }],
            ...(failed ? { isError: true } : {}),
          },
        ],
      },
    ]),
  );

const turn = fc.oneof(
  step,
  nasty.map((text): Message[] => [{ role: 'user', parts: [{ type: 'text', text }] }]),
  nasty.map((text): Message[] => [{ role: 'assistant', parts: [{ type: 'text', text }] }]),
  nasty.map((text): Message[] => [{ role: 'system', parts: [{ type: 'text', text }] }]),
);

const transcript = fc.record({ system: nasty, request: nasty, turns: fc.array(turn, { maxLength: 24 }) }).map(
  ({ system, request, turns }): Transcript => ({
    messages: [
      { role: 'system', parts: [{ type: 'text', text: system }] },
      { role: 'user', parts: [{ type: 'text', text: request }] },
      ...turns.flat(),
    ],
  }),
);

describe('renderReportHtml on arbitrary transcripts', () => {
  it.each(['compressor', 'rules'] as const)(
    'is well formed, shows every message once, lets no transcript "<" through and agrees with the report (%s)',
    async (engine) => {
      await fc.assert(
        fc.asyncProperty(transcript, async (input) => {
          const entry = await compactFor(engine, input, { contextLength: 2_000 });
          const html = renderReportHtml({ transcripts: [entry] });
          expectWellFormed(html);
          const cards = cardsOf(html);
          expect(cards.filter((card) => card.side === 'before')).toHaveLength(input.messages.length);
          expect(cards.filter((card) => card.side === 'after')).toHaveLength(entry.after.messages.length);
          expect(new Set(cards.map((card) => `${card.side}${card.index}`)).size).toBe(cards.length);
          const { totals, after } = classifyMessages(input.messages, entry.after.messages, entry.report);
          const unexplained = after.filter((row) => row.status === 'changed');
          expect(unexplained.map((row) => `#${row.index} from #${row.counterpart}: ${row.reason}`)).toEqual(
            [],
          );
          if (engine === 'compressor') expect(totals.folded).toBe(entry.report.dropped);
          else {
            const rules = ruleCounts(entry.report);
            expect(totals.collapsedPairs).toBe(rules.collapsedPairs);
            expect(totals.truncatedOutputs).toBe(rules.truncatedOutputs);
            expect(totals.droppedSystem).toBe(rules.droppedSystem);
            expect(totals.mergedAssistant).toBe(rules.mergedAssistant);
          }
        }),
        { numRuns: 40 },
      );
    },
  );
});
