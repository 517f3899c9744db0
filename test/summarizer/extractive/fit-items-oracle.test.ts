import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTokens, type FittedItems, fitItems } from '../../../src/summarizer/extractive/fit-items.js';
import {
  type Item,
  isRecordLine,
  PRIORITY,
  type Priority,
} from '../../../src/summarizer/extractive/items.js';
import { emptyRendering, renderItems } from '../../../src/summarizer/extractive/render-items.js';
import { VisiblePieces } from '../../../src/summarizer/extractive/visible-pieces.js';
import {
  CHECKPOINT_SECTIONS,
  EMPTY_SECTION,
  type SectionKey,
  sectionHeading,
} from '../../../src/summarizer/prompts/checkpoint-template.js';
import { createRoughCounter } from '../../../src/tokens/rough-counter.js';
import { referenceVisiblePieces } from './visible-pieces-reference.js';

// Fitting and rendering as they were before issue 15 took the copies, the sorts and the heading regex out of
// them, kept as oracles: the checkpoint, its token count and what it says was left out must not change.

function oracleDemoteHeadings(body: string): string {
  return body.replace(
    /^([ \t]*)(#{1,3})(?=[ \t])/gm,
    (_match, indent: string, hashes: string) => `${indent}${'#'.repeat(4 - hashes.length)}${hashes}`,
  );
}

function oracleCondensedRun(run: readonly { number: number; tool: string }[]): string {
  const first = run[0]?.number ?? 0;
  const last = run[run.length - 1]?.number ?? first;
  const tools = new Map<string, number>();
  for (const entry of run) tools.set(entry.tool, (tools.get(entry.tool) ?? 0) + 1);
  const list = [...tools].map(([tool, count]) => `${tool} ×${count}`).join(', ');
  return `${first === last ? first : `${first}–${last}`}. (${run.length} condensed: ${list})`;
}

function oracleSectionLines(items: readonly Item[], every: readonly Item[]): string[] {
  const lines: string[] = [];
  const groups = new Map<string, string[]>();
  const groupAt = new Map<string, number>();
  const keptActions = new Set(
    items.flatMap((item) => (item.action === undefined ? [] : [item.action.number])),
  );
  const skipped = every.filter((item) => item.action !== undefined && !keptActions.has(item.action.number));
  let run: { number: number; tool: string }[] = [];
  const flush = () => {
    if (run.length > 0) lines.push(oracleCondensedRun(run));
    run = [];
  };
  const sorted = [...items].sort((a, b) => a.order - b.order);
  let pending = 0;
  for (const item of sorted) {
    if (item.action !== undefined) {
      for (
        ;
        pending < skipped.length && (skipped[pending]?.action?.number ?? 0) < item.action.number;
        pending++
      ) {
        const entry = skipped[pending]?.action;
        if (entry !== undefined) run.push(entry);
      }
      flush();
    }
    if (item.group !== undefined) {
      const members = groups.get(item.group);
      if (members === undefined) {
        groups.set(item.group, [item.text]);
        groupAt.set(item.group, lines.length);
        lines.push('');
      } else members.push(item.text);
      continue;
    }
    lines.push(item.raw === true ? item.text : `- ${item.text}`);
  }
  for (; pending < skipped.length; pending++) {
    const entry = skipped[pending]?.action;
    if (entry !== undefined) run.push(entry);
  }
  flush();
  for (const [group, members] of groups) {
    const separator = members.some((member) => member.includes(', ')) ? '; ' : ', ';
    lines[groupAt.get(group) as number] = `- ${group}: ${members.join(separator)}`;
  }
  return lines;
}

function oracleRenderItems(kept: readonly Item[], compact: boolean, every: readonly Item[] = kept): string {
  const bySection = new Map<SectionKey, Item[]>();
  for (const item of kept) {
    const list = bySection.get(item.section);
    if (list === undefined) bySection.set(item.section, [item]);
    else list.push(item);
  }
  const everyAction = every.filter((item) => item.action !== undefined);
  const blocks: string[] = [];
  for (const section of CHECKPOINT_SECTIONS) {
    const items = bySection.get(section.key) ?? [];
    const lines =
      items.length === 0 ? [] : oracleSectionLines(items, section.key === 'actionLog' ? everyAction : []);
    if (lines.length === 0 && compact && section.key !== 'currentRequest') continue;
    const body = lines.length === 0 ? EMPTY_SECTION : oracleDemoteHeadings(lines.join('\n'));
    blocks.push(`${sectionHeading(section.key)}\n${body}`);
  }
  return blocks.join('\n\n');
}

function bare(text: string): string {
  return text.startsWith('`') && text.endsWith('`') ? text.slice(1, -1) : text;
}

function titleOf(section: Item['section']): string {
  return CHECKPOINT_SECTIONS.find((candidate) => candidate.key === section)?.title ?? section;
}

function worstIndex(kept: readonly Item[]): number {
  let worst = 0;
  for (let index = 1; index < kept.length; index++) {
    const a = kept[index] as Item;
    const b = kept[worst] as Item;
    if (a.priority > b.priority || (a.priority === b.priority && a.weight > b.weight)) worst = index;
  }
  return worst;
}

function oracleFitItems(
  items: readonly Item[],
  budget: number,
  count: (text: string) => number,
): FittedItems {
  const ranked = [...items].sort(
    (a, b) => a.priority - b.priority || a.weight - b.weight || a.order - b.order,
  );
  const full = count(oracleRenderItems([], false));
  const compact = budget < full * 4;
  const headings = new Set<Item['section']>(['currentRequest']);
  const headingCost = (section: Item['section']) =>
    compact && !headings.has(section) ? count(`## ${titleOf(section)}\n\n`) : 0;
  let used = compact ? count(oracleRenderItems([], true)) : full;
  const kept: Item[] = [];
  const shown = new Set<string>();
  const artifacts = new Set(items.flatMap((item) => (item.artifact === true ? [bare(item.text)] : [])));
  let droppedArtifacts = 0;
  let droppedItems = 0;
  let requestMissing = false;
  const droppedLines = new Map<Item['section'], number>();
  const drop = (item: Item) => {
    droppedItems++;
    if (item.artifact === true) droppedArtifacts++;
    if (item.priority === PRIORITY.request) requestMissing = true;
    if (isRecordLine(item)) droppedLines.set(item.section, (droppedLines.get(item.section) ?? 0) + 1);
  };
  for (const item of ranked) {
    if (item.artifact === true && shown.has(bare(item.text))) continue;
    const options = [item.text, ...(item.alternatives ?? [])];
    const heading = headingCost(item.section);
    let chosen: string | undefined;
    let cost = 0;
    for (const option of options) {
      cost = count(option) + 1 + heading;
      if (used + cost <= budget) {
        chosen = option;
        break;
      }
    }
    if (chosen === undefined) {
      drop(item);
      continue;
    }
    used += cost;
    headings.add(item.section);
    kept.push(chosen === item.text ? item : { ...item, text: chosen });
    if (item.artifact !== true) referenceVisiblePieces(chosen, artifacts, shown);
  }
  let rendered = oracleRenderItems(kept, compact, items);
  let tokens = count(rendered);
  while (tokens > budget && kept.length > 0) {
    const excess = tokens - budget;
    let freed = 0;
    while (freed < excess && kept.length > 0) {
      const [gone] = kept.splice(worstIndex(kept), 1);
      if (gone === undefined) break;
      freed += count(gone.text) + 1;
      drop(gone);
    }
    rendered = oracleRenderItems(kept, compact, items);
    tokens = count(rendered);
  }
  return {
    text: rendered,
    tokens,
    droppedArtifacts,
    droppedItems,
    requestLeftOut: requestMissing,
    droppedLines: new Map(
      CHECKPOINT_SECTIONS.flatMap(({ key }) => {
        const lines = droppedLines.get(key);
        return lines === undefined ? [] : [[key, lines] as const];
      }),
    ),
  };
}

const PIECES = [
  'src/a.ts',
  '`src/a.ts`',
  'npm test',
  '`npm test`',
  'Error: boom',
  'https://x.io/p',
  'Bash',
  '## Blocked',
  '# title',
  '  ### deep',
  '\t#x',
  '#\t',
  'issue #15',
  ' #',
  '\u2028',
  '\u2029# ',
  '\r',
  '\t',
  '###\t#',
  '#',
  ' ',
  '\n',
  '\n## ',
  '- ',
  '12. ',
  ', ',
  '`',
  '``',
  'a b',
  '.',
  ':',
  'é',
  '中文',
  '\ud83d\ude00',
  '\ud800',
  '\u00a0',
  'word',
];
const itemText = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((pieces) => pieces.join(''));
const SECTIONS = CHECKPOINT_SECTIONS.map((section) => section.key);
const PRIORITIES = Object.values(PRIORITY) as Priority[];
const item: fc.Arbitrary<Item> = fc
  .record(
    {
      section: fc.constantFrom(...SECTIONS),
      text: itemText,
      priority: fc.constantFrom(...PRIORITIES),
      weight: fc.integer({ min: -3, max: 30 }),
      order: fc.integer({ min: 0, max: 12 }),
      alternatives: fc.array(itemText, { maxLength: 3 }),
      group: fc.constantFrom('Read', 'paths', 'Edit'),
      artifact: fc.boolean(),
      raw: fc.boolean(),
      demotedFrom: fc.constantFrom(...PRIORITIES),
      action: fc.record({
        number: fc.integer({ min: 1, max: 20 }),
        tool: fc.constantFrom('Bash', 'Read', 'Edit'),
      }),
    },
    { requiredKeys: ['section', 'text', 'priority', 'weight', 'order'] },
  )
  .map((record) => record as Item);

const rough = createRoughCounter();
const COUNTERS: Record<string, (text: string) => number> = {
  rough: (text) => rough.countText(text),
  quarter: (text) => Math.ceil(text.length / 4),
  lines: (text) => text.split('\n').length,
};

function plain(fitted: FittedItems) {
  return { ...fitted, droppedLines: [...fitted.droppedLines] };
}

describe('fitItems and renderItems against their previous versions', () => {
  it('render the same checkpoint from the same items', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), fc.nat(), fc.boolean(), (items, cut, compact) => {
        const kept = items.slice(0, cut % (items.length + 1));
        expect(renderItems(kept, compact, items).text).toBe(oracleRenderItems(kept, compact, items));
        expect(renderItems(items, compact).text).toBe(oracleRenderItems(items, compact));
      }),
      { numRuns: 2000 },
    );
  });

  it('render an action log kept newest first, and headings inside lines, as before', () => {
    const logLine = fc.record({
      text: itemText,
      number: fc.integer({ min: 1, max: 60 }),
      tool: fc.constantFrom('Bash', 'Read'),
      raw: fc.boolean(),
      group: fc.option(fc.constantFrom('Read', 'paths'), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(logLine, { maxLength: 40 }),
        fc.boolean(),
        fc.nat(),
        fc.constantFrom<SectionKey>('actionLog', 'references', 'failures'),
        (lines, compact, keep, section) => {
          // Weights by recency, as actionLogItems gives them: ranked newest first, so kept in decreasing order.
          const every: Item[] = lines.map((line, index) => ({
            section,
            text: line.text,
            priority: PRIORITY.log,
            weight: lines.length - index,
            order: index,
            raw: line.raw,
            ...(line.group === undefined ? {} : { group: line.group }),
            action: { number: line.number, tool: line.tool },
          }));
          const kept = [...every].reverse().filter((_, index) => (keep >> (index % 30)) % 3 !== 0);
          expect(renderItems(kept, compact, every).text).toBe(oracleRenderItems(kept, compact, every));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('fit the same items within the same budget, with any counter', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 40 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(...Object.keys(COUNTERS)),
        (items, budget, name) => {
          const count = COUNTERS[name] as (text: string) => number;
          expect(plain(fitItems(items, budget, count))).toEqual(plain(oracleFitItems(items, budget, count)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leave out the same artifacts when lines ranked before, among and after them show them', () => {
    // Up to 40 distinct artifacts, so that lines are kept with many, a few and none still to come.
    const artifact = fc
      .integer({ min: 0, max: 39 })
      .map((n) => (n % 3 === 0 ? `\`src/f${n}.ts\`` : `src/f${n}.ts`));
    const line = fc
      .array(fc.oneof(artifact, fc.constantFrom(...PIECES)), { maxLength: 8 })
      .map((pieces) => pieces.join(' '));
    const ranked = (text: fc.Arbitrary<string>, isArtifact: boolean) =>
      fc.record({
        section: fc.constantFrom<SectionKey>('references', 'actionLog', 'failures', 'errorLines'),
        text,
        priority: fc.constantFrom(...PRIORITIES),
        weight: fc.integer({ min: -3, max: 30 }),
        order: fc.integer({ min: 0, max: 12 }),
        artifact: fc.constant(isArtifact),
      }) as fc.Arbitrary<Item>;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(ranked(artifact, true), ranked(line, false)), { maxLength: 80 }),
        fc.integer({ min: 0, max: 4000 }),
        fc.constantFrom(...Object.keys(COUNTERS)),
        (items, budget, name) => {
          const count = COUNTERS[name] as (text: string) => number;
          expect(plain(fitItems(items, budget, count))).toEqual(plain(oracleFitItems(items, budget, count)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('render the empty checkpoint once, as rendering nothing does, and fit with its count given', () => {
    for (const compact of [false, true]) {
      expect(emptyRendering(compact)).toBe(oracleRenderItems([], compact));
      expect(emptyRendering(compact)).toBe(emptyRendering(compact));
    }
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 30 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.constantFrom(...Object.keys(COUNTERS)),
        (items, budget, name) => {
          const count = COUNTERS[name] as (text: string) => number;
          expect(plain(fitItems(items, budget, count, emptyTokens(count)))).toEqual(
            plain(oracleFitItems(items, budget, count)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agree on long and hostile items', () => {
    const long: Item[] = [
      {
        section: 'currentRequest',
        text: `## ${'#'.repeat(5000)} x\n${' '.repeat(9000)}`,
        priority: 0,
        weight: 0,
        order: 0,
        raw: true,
      },
      {
        section: 'actionLog',
        text: '`'.repeat(20_000),
        priority: 5,
        weight: 1,
        order: 2,
        action: { number: 3, tool: 'Bash' },
      },
      {
        section: 'actionLog',
        text: 'ran it',
        priority: 5,
        weight: 2,
        order: 1,
        action: { number: 9, tool: 'Read' },
      },
      {
        section: 'references',
        text: `\`${'a b '.repeat(5000)}\``,
        priority: 3,
        weight: 0,
        order: 0,
        artifact: true,
      },
      { section: 'references', text: `${'a b '.repeat(5000)}`, priority: 2, weight: 0, order: 1 },
      {
        section: 'errorLines',
        text: '\ud800'.repeat(3000),
        priority: 3,
        weight: 0,
        order: 0,
        artifact: true,
      },
    ];
    for (const budget of [0, 10, 200, 5000, 50_000])
      for (const count of Object.values(COUNTERS))
        expect(plain(fitItems(long, budget, count))).toEqual(plain(oracleFitItems(long, budget, count)));
  });
});

describe('VisiblePieces backtick spans', () => {
  const text = fc
    .array(fc.constantFrom('`', '``', '```', 'a b', 'x', '\n', ' ', 'src/a.ts', ',', '\r'), { maxLength: 30 })
    .map((pieces) => pieces.join(''));
  it('finds every span the regular expression captured', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const all = new Set<string>();
        referenceVisiblePieces(sample, { has: () => true } as unknown as ReadonlySet<string>, all);
        const expected = new Set<string>();
        referenceVisiblePieces(sample, all, expected);
        const actual = new Set<string>();
        new VisiblePieces(all).collect(sample, actual);
        expect([...actual].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 3000 },
    );
  });
});
