import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractArtifacts } from '../../../src/inspect/artifacts.js';
import { collectFacts } from '../../../src/summarizer/extractive/collect-facts.js';
import { type Item, PRIORITY, type Priority } from '../../../src/summarizer/extractive/items.js';
import { readPreviousCheckpoint, unbullet } from '../../../src/summarizer/extractive/previous-checkpoint.js';
import {
  pathOfFileLine,
  type RecordInput,
  recordItems,
} from '../../../src/summarizer/extractive/record-items.js';
import { isNoisePath, labelledLine } from '../../../src/summarizer/extractive/reference-items.js';
import { createExtractiveSummarizer } from '../../../src/summarizer/index.js';
import { assistantMessage, userMessage } from '../../../src/testing.js';
import { request } from '../helpers.js';
import { runMessages } from './fact-generators.js';

// The regexes replaced: the oracles, fast on short strings only.
const PATH_END = /\s+[(—]/;
const LABELLED = /^\s*[-*]\s+([^:]{1,40}):\s+(.+)$/;

const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\u00a0', '\u2028', '\u2029', '\ufeff'];

function textOf(pieces: readonly string[], maxLength = 20) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

describe('previous checkpoint lines carried into the record', () => {
  it('cut a files-changed line at its path as the regex did', () => {
    const text = textOf(['(', '—', 'a', '/', '-', ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        expect(pathOfFileLine(value)).toBe(value.split(PATH_END)[0] ?? '');
      }),
      { numRuns: 10_000 },
    );
  });

  it('read a labelled references line as the regex did', () => {
    const text = textOf(['-', '*', ':', 'paths', 'a, b', 'x'.repeat(20), ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        const match = LABELLED.exec(value);
        expect(labelledLine(value)).toEqual(
          match === null ? undefined : { label: match[1], values: match[2] },
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it('update a hostile previous checkpoint in linear time: long runs of white space in its lines', async () => {
    // The regexes took quadratic time: 64 KB of spaces in a line, 1.8 s and 2.3 s.
    const spaces = ' '.repeat(1_000_000);
    const previousSummary =
      `## Files Changed\n- a${spaces}b\n- src/x.ts (modified)\n` +
      `## References\n- paths:${spaces}x\ry\n- URLs: https://example.com/a, https://example.com/b`;
    const result = await createExtractiveSummarizer().summarize(
      request([userMessage('go on'), assistantMessage('ok')], { previousSummary, targetTokens: 4000 }),
    );
    expect(result.text).toContain('https://example.com/b');
  });
});

// referenceItems as it was before issue 15 built its items without copying each one for the focus topic: the
// oracle of the References section.
function oracleMatchesFocus(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const lower = text.toLowerCase();
  return terms.some((term) => lower.includes(term));
}

function oracleBump(priority: Priority, focused: boolean): Priority {
  return focused && priority > PRIORITY.core ? PRIORITY.core : priority;
}

function oracleReferenceItems(input: RecordInput): Item[] {
  const items: Item[] = [];
  const { artifacts, facts } = input;
  const changed = new Set(
    facts.actions.filter((action) => action.effect !== undefined).flatMap((a) => a.paths),
  );
  const read = new Set(facts.actions.filter((action) => action.verb === 'READ').flatMap((a) => a.paths));
  let order = 0;
  const add = (group: string, text: string, priority: Priority, artifact = true) => {
    items.push({ section: 'references', group, text, priority, weight: order, order: order++, artifact });
  };
  for (const line of input.previous?.sections.get('references') ?? []) {
    const labelled = labelledLine(line);
    if (labelled === undefined) add('earlier', unbullet(line), PRIORITY.detail, false);
    else
      for (const value of labelled.values.split(/, |; /))
        add(labelled.label, value.trim(), PRIORITY.artifact);
  }
  for (const path of read)
    if (!changed.has(path)) add('read', path, isNoisePath(path) ? PRIORITY.noise : PRIORITY.artifact);
  for (const path of artifacts.paths) {
    if (changed.has(path) || read.has(path)) continue;
    add('paths', path, isNoisePath(path) ? PRIORITY.noise : PRIORITY.artifact);
  }
  for (const url of artifacts.urls) add('URLs', url, PRIORITY.artifact);
  for (const command of artifacts.commands) add('commands', `\`${command}\``, PRIORITY.artifact);
  for (const tool of artifacts.toolNames) add('tools', tool, PRIORITY.artifact);
  for (const name of facts.named) add('named', `\`${name}\``, PRIORITY.detail, false);
  return items.map((item) => ({
    ...item,
    priority: oracleBump(item.priority, oracleMatchesFocus(item.text, input.focusTerms)),
  }));
}

describe('the References section', () => {
  const previousText = fc
    .array(
      fc.constantFrom(
        '- read: src/a.ts, node_modules/x/y.js',
        '- paths: src/b.ts; dist/out.js',
        '- commands: `npm test`',
        '- earlier note',
        'plain line',
        '- URLs: https://x.io/p',
      ),
      { maxLength: 6 },
    )
    .map((lines) => `## References\n${lines.join('\n')}\n\n## Action Log\n1. ran it`);
  it('lists what it listed before, focus topic included', () => {
    fc.assert(
      fc.property(
        runMessages,
        fc.option(previousText, { nil: undefined }),
        fc.subarray(['src', 'test', 'node', 'https', 'zzz']),
        (messages, previous, focusTerms) => {
          const input: RecordInput = {
            facts: collectFacts(messages),
            artifacts: extractArtifacts(messages),
            previous: previous === undefined ? undefined : readPreviousCheckpoint(previous),
            focusTerms,
            targetTokens: 2000,
            count: (text) => text.length,
          };
          expect(recordItems(input).filter((item) => item.section === 'references')).toEqual(
            oracleReferenceItems(input),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
