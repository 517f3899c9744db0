import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { textPart, toolResultText } from '../../src/model/message-helpers.js';
import type { Part, ToolResultPart } from '../../src/model/part.js';
import { DUPLICATE_PREFIX, isCondensedOutput } from '../../src/transforms/condensed-markers.js';
import { dedupeToolResults } from '../../src/transforms/dedupe-tool-results.js';
import { mapMessages, mapParts } from '../../src/transforms/rewrite.js';
import { formatCount } from '../../src/transforms/text-facts.js';
import { indexToolCalls } from '../../src/transforms/tool-call-index.js';
import { brokenTranscriptArb, transcriptArb } from './arbitraries.js';
import { assistant, call, result, tool } from './support.js';

/*
 * dedupeToolResults groups outputs by length before comparing texts. The previous implementation, which keyed a
 * map by every whole text, is kept here as the reference: same messages, same references, for any transcript.
 */
function previousDedupe(messages: readonly Message[], minChars: number, keepNewest: boolean) {
  type Occurrence = { index: number; partIndex: number; part: ToolResultPart };
  const groups = new Map<string, Occurrence[]>();
  messages.forEach((message, index) => {
    message.parts.forEach((part, partIndex) => {
      if (part.type !== 'tool-result' || !part.content.every((content) => content.type === 'text')) return;
      const text = toolResultText(part.content);
      if (text.length < minChars || isCondensedOutput(text)) return;
      const key = `${part.isError === true ? 'E' : 'O'}${text}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [{ index, partIndex, part }]);
      else group.push({ index, partIndex, part });
    });
  });
  const calls = indexToolCalls(messages);
  const replacements = new Map<string, Part>();
  const references: unknown[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const kept = (keepNewest ? group[group.length - 1] : group[0]) as Occurrence;
    const toolName = calls.callFor(kept.index, kept.partIndex)?.name ?? kept.part.name ?? 'tool';
    for (const copy of group) {
      if (copy === kept) continue;
      const size = formatCount(toolResultText(copy.part.content).length);
      const later = copy.index < kept.index || (copy.index === kept.index && copy.partIndex < kept.partIndex);
      const text = `${DUPLICATE_PREFIX} identical to the ${later ? 'later' : 'earlier'} output of ${toolName} call ${kept.part.callId} (${size} chars)`;
      replacements.set(`${copy.index}:${copy.partIndex}`, { ...copy.part, content: [textPart(text)] });
      references.push({
        index: copy.index,
        partIndex: copy.partIndex,
        callId: copy.part.callId,
        keptIndex: kept.index,
        keptCallId: kept.part.callId,
        toolName,
      });
    }
  }
  const out = mapMessages(messages, (message, index) =>
    mapParts(message, (part, partIndex) => replacements.get(`${index}:${partIndex}`) ?? part),
  );
  (references as { index: number; partIndex: number }[]).sort(
    (left, right) => left.index - right.index || left.partIndex - right.partIndex,
  );
  return { messages: out, deduplicated: references.length, references };
}

/** Many outputs of one length that differ only somewhere inside: the case length grouping must not merge. */
const sameLengthArb: fc.Arbitrary<Message[]> = fc
  .array(
    fc.record({
      at: fc.integer({ min: 0, max: 11 }),
      letter: fc.constantFrom('a', 'b', 'c'),
      isError: fc.boolean(),
    }),
    { maxLength: 40 },
  )
  .map((outputs) =>
    outputs.flatMap(({ at, letter, isError }, index) => {
      const text = `${'x'.repeat(at)}${letter}${'x'.repeat(239 - at)}`;
      return [
        assistant('', call(`c${index}`, 'Read', { path: `/f${index % 3}` })),
        tool(result(`c${index}`, text, { isError })),
      ];
    }),
  );

describe('dedupeToolResults grouping by length', () => {
  it('finds exactly the duplicates whole-text keys found', () => {
    fc.assert(
      fc.property(
        fc.oneof(transcriptArb, brokenTranscriptArb, sameLengthArb),
        fc.boolean(),
        fc.constantFrom(1, 200),
        (messages, keepNewest, minChars) => {
          const keep = keepNewest ? 'newest' : 'earliest';
          expect(dedupeToolResults(messages, { minChars, keep })).toEqual(
            previousDedupe(messages, minChars, keepNewest),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
