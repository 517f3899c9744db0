import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import type { Part } from '../../src/model/part.js';
import {
  checkpointOf,
  type ParsedCheckpoint,
  parseCheckpoint,
  renderCheckpoint,
} from '../../src/transforms/checkpoint-text.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 400) };

// The oracle: `parseCheckpoint` as it was before texts that cannot hold a checkpoint were answered by a
// first-character and delimiter check (a verbatim copy, its constants included).
const HEADER_START = '[condense checkpoint';
const END_MARKER = '[end of condense checkpoint: the conversation continues below]';
const PREAMBLE =
  'Earlier turns of this conversation were condensed into the notes below. They record work that already ' +
  'happened and are background, not instructions. The most recent message the user wrote outside these notes ' +
  'is what to act on now; requests listed here were already handled unless that message asks to continue them. ' +
  'Your tools work as before.';
const HERMES_PREFIX = '[CONTEXT COMPACTION';
const HERMES_LEGACY_PREFIX = '[CONTEXT SUMMARY]:';
const HERMES_MERGE_HEADER = '[PRIOR CONTEXT — for reference only; not a new message]';
const HERMES_MERGE_DELIMITER = '[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]';
const HERMES_END_MARKER =
  '--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---';
const CLAUDE_CODE_PREFIX =
  'This session is being continued from a previous conversation that ran out of context.';

function oracleParse(text: string): ParsedCheckpoint | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith(HEADER_START)) {
    const headerEnd = trimmed.indexOf('\n');
    const header = headerEnd === -1 ? trimmed : trimmed.slice(0, headerEnd);
    const source = /source: (model|extractive|fallback-marker)\]/.exec(header)?.[1] as
      | ParsedCheckpoint['source']
      | undefined;
    const split = splitAtEnd(headerEnd === -1 ? '' : trimmed.slice(headerEnd + 1), END_MARKER);
    let body = split.body;
    if (body.startsWith(PREAMBLE)) body = body.slice(PREAMBLE.length);
    return {
      body: body.trim(),
      author: 'condense',
      ...(source === undefined ? {} : { source }),
      ...(split.rest === undefined ? {} : { rest: split.rest }),
    };
  }
  const delimiter = trimmed.indexOf(HERMES_MERGE_DELIMITER);
  if (delimiter === -1) {
    if (trimmed.startsWith(HERMES_LEGACY_PREFIX)) {
      return hermesCheckpoint(trimmed.slice(HERMES_LEGACY_PREFIX.length), 'hermes-legacy', undefined);
    }
    if (trimmed.startsWith(HERMES_PREFIX)) return hermesCheckpoint(hermesBody(trimmed), 'hermes', undefined);
  } else {
    const afterMerge = trimmed.slice(delimiter + HERMES_MERGE_DELIMITER.length).trimStart();
    const before = trimmed.slice(0, delimiter);
    const prior = (before.startsWith(HERMES_MERGE_HEADER) ? before.slice(HERMES_MERGE_HEADER.length) : before)
      .replace(/^\r?\n/, '')
      .trimEnd();
    if (afterMerge.startsWith(HERMES_LEGACY_PREFIX)) {
      return hermesCheckpoint(afterMerge.slice(HERMES_LEGACY_PREFIX.length), 'hermes-legacy', prior);
    }
    if (afterMerge.startsWith(HERMES_PREFIX))
      return hermesCheckpoint(hermesBody(afterMerge), 'hermes', prior);
  }
  if (trimmed.startsWith(CLAUDE_CODE_PREFIX)) {
    return { body: trimmed.slice(CLAUDE_CODE_PREFIX.length).trim(), author: 'claude-code' };
  }
  return undefined;
}

function hermesCheckpoint(
  body: string,
  author: ParsedCheckpoint['author'],
  prior: string | undefined,
): ParsedCheckpoint {
  const split = splitAtEnd(body, HERMES_END_MARKER);
  const rest = [prior, split.rest].filter((piece): piece is string => piece !== undefined && piece !== '');
  return { body: split.body.trim(), author, ...(rest.length === 0 ? {} : { rest: rest.join('\n') }) };
}

function splitAtEnd(text: string, marker: string): { body: string; rest?: string } {
  const at = text.indexOf(marker);
  if (at === -1) return { body: text };
  const rest = text.slice(at + marker.length).replace(/^\r?\n/, '');
  return rest.trim() === '' ? { body: text.slice(0, at) } : { body: text.slice(0, at), rest };
}

function hermesBody(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? '' : text.slice(newline + 1);
}

// Pieces a text is made of: every marker whole and cut short, white space of every kind `trimStart` knows (and
// some it does not), lookalikes of the first characters, surrogates (lone ones too) and plain words.
const PIECES = [
  HEADER_START,
  `${HEADER_START} · reference only · source: extractive]`,
  END_MARKER,
  PREAMBLE,
  HERMES_PREFIX,
  HERMES_LEGACY_PREFIX,
  HERMES_MERGE_HEADER,
  HERMES_MERGE_DELIMITER,
  HERMES_MERGE_DELIMITER.slice(0, 20),
  HERMES_END_MARKER,
  CLAUDE_CODE_PREFIX,
  CLAUDE_CODE_PREFIX.slice(0, 30),
  renderCheckpoint('a body', 'model'),
  '[',
  'T',
  'This',
  '{',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  '\u200b',
  '\u0085',
  '\ud83d\ude00',
  '\ud83d',
  '\ude00',
  'é',
  'word',
  'Please fix the bug.',
];

const textArb = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .tuple(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(...PIECES),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
    )
    .map((pieces) => pieces.join('')),
);

describe('parseCheckpoint: the check before parsing', () => {
  it('answers every text as the parser without it did', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(parseCheckpoint(text)).toEqual(oracleParse(text));
      }),
      RUNS,
    );
  });

  it('answers long runs and empty text', () => {
    for (const text of [
      '',
      ' '.repeat(100_000),
      `${' '.repeat(100_000)}${HERMES_LEGACY_PREFIX} x`,
      `${'a'.repeat(100_000)}${HERMES_MERGE_DELIMITER}\n${HERMES_PREFIX} x\nbody`,
      `${'\u3000'.repeat(1_000)}${HEADER_START}]\nbody`,
      `${'é'.repeat(50_000)}${HERMES_MERGE_DELIMITER}${HERMES_LEGACY_PREFIX} x`,
    ]) {
      expect(parseCheckpoint(text)).toEqual(oracleParse(text));
    }
  });
});

describe('checkpointOf: messages answered without the memo', () => {
  const partArb: fc.Arbitrary<Part> = fc.oneof(
    textArb.map((text): Part => ({ type: 'text', text })),
    fc.constant<Part>({ type: 'reasoning', text: HERMES_LEGACY_PREFIX }),
    fc.constant<Part>({ type: 'tool-call', id: 'c', name: 'Bash', arguments: '{}' }),
  );
  const messageArb = fc.record({
    role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const, 'tool' as const),
    parts: fc.array(partArb, { maxLength: 3 }),
  });

  it('finds the checkpoint of the first text part as parsing it does', () => {
    fc.assert(
      fc.property(messageArb, (message) => {
        const found = checkpointOf(message as Message);
        const partIndex = message.parts.findIndex((part) => part.type === 'text');
        const first = message.parts[partIndex];
        const expected =
          (message.role === 'user' || message.role === 'assistant') && first?.type === 'text'
            ? oracleParse(first.text)
            : undefined;
        expect(found).toEqual(expected === undefined ? undefined : { ...expected, partIndex });
      }),
      RUNS,
    );
  });
});
