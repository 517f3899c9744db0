import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitItems } from '../../../src/summarizer/extractive/fit-items.js';
import {
  demoteBeyond,
  type Item,
  isRecordLine,
  MAX_CHARS_PER_TOKEN,
  PRIORITY,
  type Priority,
  shareCost,
  UNCOUNTED_LENGTH,
} from '../../../src/summarizer/extractive/items.js';
import {
  CHECKPOINT_SECTIONS,
  createExtractiveSummarizer,
  parseSections,
  type SectionKey,
} from '../../../src/summarizer/index.js';
import { assistantMessage, userMessage } from '../../../src/testing.js';
import { messages } from '../generators.js';
import { counter, request } from '../helpers.js';

const count = (text: string) => counter.countText(text);
const summarizer = createExtractiveSummarizer();
const TITLES = new Map(CHECKPOINT_SECTIONS.map((section) => [section.key, section.title]));

function filesChanged(text: string): string {
  return parseSections(text).sections.get('filesChanged') ?? '';
}

/** Lines left out, by section title, as the notes say (`3 lines (Files Changed 2, Task State 1) left out…`). */
function notedLines(notes: readonly string[] | undefined): Map<string, number> {
  const noted = new Map<string, number>();
  for (const note of notes ?? []) {
    const list = /^\d+ lines? \(([^)]*)\) left out to fit/.exec(note)?.[1];
    if (list === undefined) continue;
    for (const entry of list.split(', ')) {
      const match = /^(.*) (\d+)$/.exec(entry);
      if (match !== null) noted.set(match[1] as string, Number(match[2]));
    }
  }
  return noted;
}

function line(text: string, priority: Priority, weight: number): Item {
  return { section: 'filesChanged', text, priority, weight, order: weight };
}

describe("a section's share of the checkpoint", () => {
  it('is not spent by a long run of white space: the padded line and the lines after it keep their rank', async () => {
    for (const spaces of [100, 10_000]) {
      const padded = `a${' '.repeat(spaces)}b`;
      const previousSummary = `## Files Changed\n- ${padded}\n- src/x.ts (modified)\n## References\n- URLs: https://example.com/a`;
      const result = await summarizer.summarize(
        request([userMessage('go on'), assistantMessage('ok')], { previousSummary, targetTokens: 4000 }),
      );
      const section = filesChanged(result.text);
      expect(section).toContain(padded);
      expect(section).toContain('src/x.ts (modified)');
      expect(result.notes ?? []).toEqual([]);
    }
  });

  it('demotes a line larger than the whole share alone: the lines after it stay, it is kept or reported', async () => {
    const long = `a ${'long words '.repeat(2000)}b`;
    const previousSummary = `## Files Changed\n- ${long}\n- src/x.ts (modified)\n- src/y.ts (created)`;
    for (const maxInputShare of [0.6, Number.POSITIVE_INFINITY]) {
      const result = await createExtractiveSummarizer({ maxInputShare }).summarize(
        request([userMessage('go on'), assistantMessage('ok')], { previousSummary, targetTokens: 4000 }),
      );
      const section = filesChanged(result.text);
      expect(section).toContain('src/x.ts (modified)');
      expect(section).toContain('src/y.ts (created)');
      if (!section.includes(long.trim())) expect(notedLines(result.notes).get('Files Changed')).toBe(1);
    }
  });

  it('demotes the items past the share, remembering their rank; one item over the share goes alone', () => {
    const items = [line('x'.repeat(60), PRIORITY.core, 0), line('y'.repeat(60), PRIORITY.core, 1)];
    const [first, second] = demoteBeyond(items, 100, count);
    expect(first).toBe(items[0]);
    expect(second).toMatchObject({ priority: PRIORITY.detail, demotedFrom: PRIORITY.core });

    const huge = [line('z'.repeat(500), PRIORITY.state, 0), ...items];
    const [big, ...rest] = demoteBeyond(huge, 130, count);
    expect(big).toMatchObject({ priority: PRIORITY.detail, demotedFrom: PRIORITY.state });
    expect(rest).toEqual(items);

    // 10,000 spaces are a few tokens to the fitter: the padded line spends that little of a 2,800-character share.
    const padded = [
      line(`a${' '.repeat(10_000)}b`, PRIORITY.core, 0),
      line('src/x.ts (modified)', PRIORITY.core, 1),
    ];
    expect(demoteBeyond(padded, 2800, count)).toEqual(padded);
  });

  it('costs a line its length, but never more than its tokens at the most characters a token takes', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.nat({ max: 20_000 }),
        fc.string({ maxLength: 40 }),
        (head, spaces, tail) => {
          const text = `${head}${' '.repeat(spaces)}${tail}`;
          const cost = shareCost(text, count);
          expect(cost).toBeLessThanOrEqual(text.length);
          expect(cost).toBeLessThanOrEqual(Math.max(UNCOUNTED_LENGTH, count(text) * MAX_CHARS_PER_TOKEN));
        },
      ),
      { numRuns: 300 },
    );
  });
});

const SECTION_KEYS = CHECKPOINT_SECTIONS.map((section) => section.key);
const PRIORITIES = Object.values(PRIORITY) as Priority[];
const PADDING = fc.oneof(
  fc.constant(''),
  fc.nat({ max: 3000 }).map((spaces) => ' '.repeat(spaces)),
  fc.nat({ max: 400 }).map((words) => ' the build'.repeat(words)),
);

const randomItems: fc.Arbitrary<Item[]> = fc
  .array(
    fc.record({
      section: fc.constantFrom(...SECTION_KEYS),
      priority: fc.constantFrom(...PRIORITIES),
      weight: fc.integer({ min: -5, max: 50 }),
      padding: PADDING,
      shorter: fc.boolean(),
      artifact: fc.boolean(),
      demoted: fc.option(fc.constantFrom(PRIORITY.state, PRIORITY.core), { nil: undefined }),
    }),
    { maxLength: 40 },
  )
  .map((specs) =>
    specs.map((spec, index): Item => {
      const marker = `[item-${index}]`;
      return {
        section: spec.section,
        text: `${marker}${spec.padding}`,
        priority: spec.demoted === undefined ? spec.priority : PRIORITY.detail,
        weight: spec.weight,
        order: index,
        ...(spec.shorter ? { alternatives: [marker] } : {}),
        ...(spec.artifact && spec.demoted === undefined ? { artifact: true } : {}),
        ...(spec.demoted === undefined ? {} : { demotedFrom: spec.demoted }),
      };
    }),
  );

describe('record lines left out of the checkpoint', () => {
  it('are counted by section by the fitter, exactly', () => {
    fc.assert(
      fc.property(randomItems, fc.integer({ min: 1, max: 3000 }), (items, budget) => {
        const fitted = fitItems(items, budget, count);
        const missing = new Map<SectionKey, number>();
        items.forEach((item, index) => {
          if (!isRecordLine(item) || fitted.text.includes(`[item-${index}]`)) return;
          missing.set(item.section, (missing.get(item.section) ?? 0) + 1);
        });
        expect(new Map(fitted.droppedLines)).toEqual(missing);
        expect([...fitted.droppedLines.keys()]).toEqual(
          SECTION_KEYS.filter((key) => fitted.droppedLines.has(key)),
        );
      }),
      { numRuns: 300 },
    );
  });

  // Sections whose previous lines are carried into the next checkpoint as record lines (not replaced by newer
  // facts, not prose): each one missing from the checkpoint must be in the notes.
  const CARRIED: readonly SectionKey[] = [
    'taskState',
    'userMessages',
    'constraints',
    'filesChanged',
    'failures',
    'earlierSummary',
  ];
  const previousCheckpoints = fc
    .array(fc.record({ section: fc.constantFrom(...CARRIED), padding: PADDING }), { maxLength: 30 })
    .map((lines) => {
      const bySection = new Map<SectionKey, string[]>();
      lines.forEach(({ section, padding }, index) => {
        const text = `[line-${index}] ${section} note${padding} end`;
        bySection.set(section, [...(bySection.get(section) ?? []), text]);
      });
      const body = CARRIED.flatMap((key) => {
        const list = bySection.get(key);
        return list === undefined ? [] : [`## ${TITLES.get(key)}`, ...list.map((text) => `- ${text}`)];
      }).join('\n');
      return { body, lines: lines.map(({ section }, index) => ({ section, marker: `[line-${index}]` })) };
    });

  it('are each reported in the notes by section, and the checkpoint still fits the target unless it says so', async () => {
    await fc.assert(
      fc.asyncProperty(
        previousCheckpoints,
        messages,
        fc.integer({ min: 1, max: 5000 }),
        fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
        fc.constantFrom(0.6, Number.POSITIVE_INFINITY),
        async (previous, turns, targetTokens, maxTokens, maxInputShare) => {
          const result = await createExtractiveSummarizer({ maxInputShare }).summarize({
            messages: turns,
            previousSummary: previous.body,
            targetTokens,
            counter,
            ...(maxTokens === undefined ? {} : { maxTokens }),
          });
          const missing = new Map<string, number>();
          for (const { section, marker } of previous.lines) {
            if (result.text.includes(marker)) continue;
            const title = TITLES.get(section) as string;
            missing.set(title, (missing.get(title) ?? 0) + 1);
          }
          const noted = notedLines(result.notes);
          for (const [title, lines] of missing) expect(noted.get(title) ?? 0).toBeGreaterThanOrEqual(lines);
          const over = counter.countText(result.text) > targetTokens;
          expect(over).toBe((result.notes ?? []).some((note) => note.includes('over the')));
        },
      ),
      { numRuns: 200 },
    );
  });
});

// demoteBeyond as it was before issue 15 returned the items themselves when none goes: the oracle.
function oracleDemoteBeyond(items: readonly Item[], shareChars: number, counting: (text: string) => number) {
  const order = [...items].sort((a, b) => a.priority - b.priority || a.weight - b.weight);
  const demoted = new Set<Item>();
  let used = 0;
  for (const item of order) {
    if (item.priority >= PRIORITY.detail) continue;
    const cost = shareCost(item.text, counting);
    if (cost > shareChars) {
      demoted.add(item);
      continue;
    }
    used += cost;
    if (used > shareChars) demoted.add(item);
  }
  return items.map((item) =>
    demoted.has(item)
      ? { ...item, priority: PRIORITY.detail, demotedFrom: item.demotedFrom ?? item.priority }
      : item,
  );
}

describe('demoteBeyond against its previous version', () => {
  it('demotes the same items, with any counter and share', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.nat({ max: 900 }).map((length) => 'x '.repeat(length)),
      fc.nat({ max: 900 }).map((length) => ' '.repeat(length)),
    );
    const item = fc.record({
      section: fc.constantFrom<SectionKey>('filesChanged', 'taskState'),
      text,
      priority: fc.constantFrom(...(Object.values(PRIORITY) as Priority[])),
      weight: fc.integer({ min: -3, max: 20 }),
      order: fc.nat({ max: 20 }),
    }) as fc.Arbitrary<Item>;
    const counters = [count, (value: string) => value.length / 3, () => 0.1];
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 30 }),
        fc.oneof(fc.nat({ max: 3000 }), fc.double({ min: 0, max: 3000, noNaN: true })),
        fc.nat({ max: counters.length - 1 }),
        (items, share, which) => {
          const counting = counters[which] as (value: string) => number;
          const actual = demoteBeyond(items, share, counting);
          expect(actual).toEqual(oracleDemoteBeyond(items, share, counting));
          if (actual.every((kept, index) => kept === items[index])) expect(actual).toBe(items);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
