import { describe, expect, it } from 'vitest';
import { artifactCoverage, extractArtifacts } from '../../src/inspect/artifacts.js';
import type { Message } from '../../src/model/message.js';
import {
  CHECKPOINT_SECTIONS,
  createExtractiveSummarizer,
  parseSections,
  type SectionKey,
} from '../../src/summarizer/index.js';
import {
  assistantMessage,
  buildCodingSession,
  checkpointAnswer,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing.js';
import { renderCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { counter, FAKE_TOKEN, request } from './helpers.js';

// Content tests use sessions small enough that the default cap (60 % of the turns) would trim their prose.
const summarizer = createExtractiveSummarizer({ maxInputShare: Number.POSITIVE_INFINITY });

function sections(text: string): ReadonlyMap<SectionKey, string> {
  return parseSections(text).sections;
}

/** A session in which nearly every checkpoint section has something to say. */
function fullSession(): { messages: Message[]; latest: string } {
  const read = toolCall('Read', { file_path: 'src/parser/tokenize.ts' }, 'c1');
  const todo = toolCall(
    'TodoWrite',
    {
      todos: [
        { content: 'Fix the tokenizer', status: 'completed' },
        { content: 'Update the parser docs', status: 'in_progress' },
        { content: 'Add regression tests for unicode input', status: 'pending' },
      ],
    },
    'c2',
  );
  const failingTest = toolCall('Bash', { command: 'npm test -- tokenize' }, 'c3');
  const edit = toolCall(
    'Edit',
    {
      file_path: 'src/parser/tokenize.ts',
      old_string: 'return input.split("");',
      new_string: 'return Array.from(input);\nexport function codePoints(input: string) {}',
    },
    'c4',
  );
  const passingTest = toolCall('Bash', { command: 'npm test -- tokenize' }, 'c5');
  const fetchDocs = toolCall('WebFetch', { url: 'https://nodejs.org/api/util.html' }, 'c6');
  const lint = toolCall('Bash', { command: 'npm run lint' }, 'c7');
  const write = toolCall('Write', { file_path: 'docs/parser.md', content: '# Parser\n' }, 'c8');
  const messages = [
    userMessage(
      'The tokenizer breaks on emoji. Fix it, but never change the public API and keep the tests green.',
    ),
    assistantMessage("I'll read the tokenizer first.", read),
    toolResult(
      read,
      '1→export function tokenize(input: string) {\n2→  return input.split("");\n3→}\n(Current directory: /repo)',
    ),
    assistantMessage(
      'The bug is that split("") breaks surrogate pairs, so I decided to use Array.from because it iterates code points.',
      todo,
    ),
    toolResult(todo, 'Todos have been modified successfully.'),
    assistantMessage('Running the tests.', failingTest),
    toolResult(
      failingTest,
      'FAIL test/tokenize.test.ts\nAssertionError: expected 2 to equal 1\nExit code 1',
      { isError: true },
    ),
    assistantMessage('The assertion shows surrogate pairs are split in two.', edit),
    toolResult(edit, 'The file src/parser/tokenize.ts has been updated.'),
    assistantMessage(undefined, passingTest),
    toolResult(passingTest, 'PASS test/tokenize.test.ts\n3 passed'),
    assistantMessage('Checking the util docs.', fetchDocs),
    toolResult(fetchDocs, 'util.inspect() returns a string representation.'),
    assistantMessage(undefined, write),
    toolResult(write, 'File created successfully at: docs/parser.md'),
    assistantMessage('Now I will run the linter on `src/parser`.', lint),
    toolResult(lint, 'Error: Cannot find module eslint-plugin-unicorn\nExit code 2', { isError: true }),
    userMessage('No, use biome instead of eslint. Which Node version does this need?'),
  ];
  return { messages, latest: 'Please finish the parser docs next.' };
}

describe('extractive summarizer: a handoff', () => {
  it('fills the sections from a realistic session', async () => {
    const { messages, latest } = fullSession();
    const result = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    expect(result.source).toBe('extractive');
    expect(result.calls).toBe(0);
    const parsed = sections(result.text);
    for (const section of CHECKPOINT_SECTIONS) {
      if (section.key === 'earlierSummary') continue;
      expect(parsed.get(section.key), section.title).not.toBe('- none');
    }
    expect(parsed.get('currentRequest')).toBe(latest);
    expect(parsed.get('originalRequest')).toContain('The tokenizer breaks on emoji.');
    expect(parsed.get('nextStep')).toContain('Continue: Update the parser docs');
    expect(parsed.get('taskState')).toContain('[done] Fix the tokenizer');
    expect(parsed.get('taskState')).toContain('[in progress] Update the parser docs');
    expect(parsed.get('taskState')).toContain('[pending] Add regression tests for unicode input');
    expect(parsed.get('userMessages')).toContain('No, use biome instead of eslint.');
    expect(parsed.get('constraints')).toContain('never change the public API');
    expect(parsed.get('constraints')).toContain('No, use biome instead of eslint.');
    expect(parsed.get('filesChanged')).toContain('src/parser/tokenize.ts (modified)');
    expect(parsed.get('filesChanged')).toContain('codePoints');
    expect(parsed.get('filesChanged')).toContain('docs/parser.md (created)');
    expect(parsed.get('failures')).toMatch(
      /npm test -- tokenize.* failed: AssertionError: expected 2 to equal 1 → fixed: edited src\/parser\/tokenize\.ts/,
    );
    expect(parsed.get('failures')).toContain('surrogate pairs are split in two');
    expect(parsed.get('failures')).toMatch(/npm run lint.* still failing/);
    expect(parsed.get('keyDecisions')).toContain(
      'I decided to use Array.from because it iterates code points',
    );
    expect(parsed.get('pendingAsks')).toContain('Which Node version does this need?');
    expect(parsed.get('activeState')).toContain('Working directory: /repo');
    expect(parsed.get('errorLines')).toContain('Error: Cannot find module eslint-plugin-unicorn');
    expect(parsed.get('actionLog')).toContain('1. READ src/parser/tokenize.ts — ok (4 lines) [tool: Read]');
    expect(parsed.get('actionLog')).toContain('FETCH https://nodejs.org/api/util.html');
    expect(parsed.get('references')).toContain('`src/parser`');
  });

  it('writes the sections in template order', async () => {
    const result = await summarizer.summarize(request(buildCodingSession().messages));
    const headings = result.text.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(CHECKPOINT_SECTIONS.map((section) => `## ${section.title}`));
  });

  it('is deterministic and leaves its input alone', async () => {
    const { messages, latest } = fullSession();
    const frozen = structuredClone(messages);
    const first = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    const second = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    expect(second.text).toBe(first.text);
    expect(messages).toEqual(frozen);
  });
});

describe('extractive summarizer: whose words', () => {
  it('never takes harness text for the request', async () => {
    const messages = [
      userMessage('Build the thing.'),
      assistantMessage('Done.'),
      userMessage('[Request interrupted by user]'),
      userMessage('<local-command-stdout>ok</local-command-stdout>'),
      userMessage(
        '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>',
      ),
      userMessage('<system-reminder>\nThe file was modified.\n</system-reminder>'),
      { ...userMessage('Base directory for this skill: /skills/x\nDo the skill.'), meta: { injected: true } },
    ];
    const result = await summarizer.summarize(request(messages));
    const parsed = sections(result.text);
    expect(parsed.get('currentRequest')).toBe('Build the thing.');
    expect(parsed.get('userMessages')).toBe('1. Build the thing.');
  });

  it('gives the request being continued when the person only said to go on', async () => {
    const messages = [userMessage('Migrate the store to SQLite.'), assistantMessage('Started.')];
    const result = await summarizer.summarize(
      request(messages, {
        latestUserRequest: 'continue',
        userRequests: ['Migrate the store to SQLite.', 'continue'],
      }),
    );
    const current = sections(result.text).get('currentRequest') ?? '';
    expect(current).toContain('Migrate the store to SQLite.');
    expect(current).toContain('(then the person wrote: "continue")');
  });

  it('finds the original request outside the folded turns', async () => {
    const call = toolCall('Bash', { command: 'ls' }, 'l1');
    const messages = [assistantMessage(undefined, call), toolResult(call, 'a.txt')];
    const result = await summarizer.summarize(
      request(messages, {
        latestUserRequest: 'Now sort them.',
        userRequests: ['List the files.', 'Now sort them.'],
      }),
    );
    expect(sections(result.text).get('originalRequest')).toBe('List the files.');
    expect(sections(result.text).get('currentRequest')).toBe('Now sort them.');
  });
});

describe('extractive summarizer: plans, trackers and commits', () => {
  it('reads Codex update_plan, tracker commands and commit messages', async () => {
    const plan = toolCall('update_plan', {
      plan: [
        { step: 'Write the migration', status: 'completed' },
        { step: 'Backfill rows', status: 'in_progress' },
      ],
    });
    const close = toolCall('Bash', {
      command: 'bd close app-7.1 --reason "migration written" && bd update app-7.2 --status in_progress',
    });
    const commit = toolCall('Bash', {
      command: `git commit -m "$(cat <<'EOF'\nfeat: add the migration\n\nLonger body.\nEOF\n)"`,
    });
    const messages = [
      userMessage('Work on app-7.'),
      assistantMessage('Planning.', plan),
      toolResult(plan, 'Plan updated'),
      assistantMessage(undefined, close),
      toolResult(close, '✓ closed app-7.1'),
      assistantMessage(undefined, commit),
      toolResult(commit, '[main 1a2b3c4] feat: add the migration'),
    ];
    const parsed = sections((await summarizer.summarize(request(messages))).text);
    expect(parsed.get('taskState')).toContain('[done] Write the migration');
    expect(parsed.get('taskState')).toContain('[in progress] Backfill rows');
    expect(parsed.get('taskState')).toContain(
      '[done] app-7.1 — `bd close app-7.1 --reason "migration written"`',
    );
    expect(parsed.get('taskState')).toContain('[in progress] app-7.2');
    expect(parsed.get('taskState')).toContain('[committed] feat: add the migration');
    expect(parsed.get('nextStep')).toContain('Continue: Backfill rows');
    expect(parsed.get('nextStep')).toContain('Continue task app-7.2');
  });

  it('tells an overwritten file from a created one', async () => {
    const first = toolCall('Write', { file_path: 'a.txt', content: 'x' });
    const second = toolCall('Write', { file_path: 'b.txt', content: 'y' });
    const messages = [
      userMessage('Write them.'),
      assistantMessage(undefined, first, second),
      toolResult(first, 'File created successfully at: a.txt'),
      toolResult(second, 'The file b.txt has been updated successfully.'),
    ];
    const files = sections((await summarizer.summarize(request(messages))).text).get('filesChanged');
    expect(files).toContain('a.txt (created)');
    expect(files).toContain('b.txt (modified)');
  });
});

describe('extractive summarizer: updating a previous checkpoint', () => {
  const { messages } = fullSession();
  const first = messages.slice(0, 9);
  const second = messages.slice(9);

  it('keeps earlier entries, continues the numbering and marks failures fixed later', async () => {
    const failing = toolCall('Bash', { command: 'npm run build' }, 'b1');
    const earlier = [
      ...first,
      assistantMessage('Building.', failing),
      toolResult(failing, 'Error: tsc exited with 1', { isError: true }),
    ];
    const before = await summarizer.summarize(request(earlier));
    const beforeSections = sections(before.text);
    expect(beforeSections.get('failures')).toMatch(/npm run build.* still failing/);
    const fixed = toolCall('Bash', { command: 'npm run build' }, 'b2');
    const later = [...second, assistantMessage('Building again.', fixed), toolResult(fixed, 'built in 2s')];
    const after = await summarizer.summarize(
      request(later, {
        previousSummary: renderCheckpoint(before.text, 'extractive'),
        latestUserRequest: 'Ship it.',
      }),
    );
    const afterSections = sections(after.text);
    for (const line of (beforeSections.get('actionLog') ?? '').split('\n')) {
      expect(afterSections.get('actionLog')).toContain(line);
    }
    expect(afterSections.get('actionLog')).toContain('6. RUN `npm test -- tokenize`');
    expect(afterSections.get('failures')).toMatch(/npm run build.*fixed later: RUN `npm run build`/);
    expect(afterSections.get('currentRequest')).toBe('Ship it.');
    expect(afterSections.get('originalRequest')).toContain('The tokenizer breaks on emoji.');
    expect(afterSections.get('userMessages')).toContain('1. The tokenizer breaks on emoji.');
    expect(afterSections.get('userMessages')).toContain('2. No, use biome instead of eslint.');
    expect(afterSections.get('filesChanged')).toContain('src/parser/tokenize.ts');
  });

  it('reads a Hermes checkpoint as the previous one', async () => {
    const hermes = [
      '## Historical Task Snapshot',
      "User asked: 'port the CLI'",
      '## Goal',
      'Port the CLI to TypeScript.',
      '## Completed Actions',
      '1. READ cli.py — ok [tool: read_file]',
      '2. RUN `pytest` — 3 failed [tool: terminal]',
      '## Relevant Files',
      '- cli.py',
    ].join('\n');
    const result = await summarizer.summarize(request(second, { previousSummary: hermes }));
    const parsed = sections(result.text);
    expect(parsed.get('originalRequest')).toBe('Port the CLI to TypeScript.');
    expect(parsed.get('actionLog')).toMatch(/^1\. READ cli\.py[\s\S]*\n3\. RUN `npm test -- tokenize`/);
    expect(result.text).toContain('cli.py');
  });

  it("carries Claude Code's summary forward instead of replacing it with a log", async () => {
    const claude = [
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   The user asked to work on bead `spotter-dov` with 3 subtasks.',
      '7. Pending Tasks:',
      '   - Fix the compile error in transcript_components.ex',
    ].join('\n');
    const result = await summarizer.summarize(request(second, { previousSummary: claude }));
    const earlier = sections(result.text).get('earlierSummary') ?? '';
    expect(earlier).toContain('The user asked to work on bead `spotter-dov` with 3 subtasks.');
    expect(earlier).toContain('Fix the compile error in transcript_components.ex');
  });

  it('treats a checkpoint found among the turns as the previous one, keeping the turns around it', async () => {
    const earlier = await summarizer.summarize(request(first));
    const turns = [userMessage(renderCheckpoint(earlier.text, 'extractive')), ...second];
    const result = await summarizer.summarize(request(turns));
    expect(sections(result.text).get('actionLog')).toContain('1. READ src/parser/tokenize.ts');
    expect(result.text).not.toContain('[condense checkpoint');
  });

  it('reads the request that a wire format merged into the checkpoint string as a turn', async () => {
    const merged = `${renderCheckpoint(checkpointAnswer({ currentRequest: 'old ask' }), 'model')}\nnew ask, verbatim`;
    const result = await summarizer.summarize(request([userMessage(merged), ...second]));
    expect(sections(result.text).get('userMessages')).toContain('new ask, verbatim');
  });
});

describe('extractive summarizer: budget', () => {
  const big = buildCodingSession({ steps: 150 }).messages;

  it.each([3000, 1500, 800, 400])('fits %i tokens', async (target) => {
    const result = await summarizer.summarize(request(big, { targetTokens: target }));
    expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
    expect(result.text.startsWith('## Current Request')).toBe(true);
  });

  it('never exceeds maxTokens, whatever the target', async () => {
    for (const maxTokens of [2000, 300, 60]) {
      const result = await summarizer.summarize(request(big, { targetTokens: 5000, maxTokens }));
      expect(counter.countText(result.text)).toBeLessThanOrEqual(maxTokens);
    }
  });

  it('gives up the action log before exact strings, and says so when those go', async () => {
    const artifacts = extractArtifacts(big);
    const roomy = await summarizer.summarize(request(big, { targetTokens: 4000 }));
    expect(artifactCoverage(artifacts, roomy.text).ratio).toBe(1);
    expect(roomy.text).toContain('condensed:');
    const tight = await summarizer.summarize(request(big, { targetTokens: 300 }));
    expect(artifactCoverage(artifacts, tight.text).ratio).toBeLessThan(1);
    expect(tight.notes?.join(' ')).toMatch(/artifacts left out to fit 300 tokens/);
  });

  it('lists paths in dependency folders and assets last', async () => {
    const read = toolCall('Read', { file_path: 'src/app.ts' }, 'r1');
    const noisy = Array.from(
      { length: 80 },
      (_, index) => `node_modules/pkg-${index}/dist/style-${index}.css`,
    );
    const messages = [
      userMessage('Fix the styles.'),
      assistantMessage(undefined, read),
      toolResult(read, ['src/app.ts imports:', ...noisy, 'src/theme.ts'].join('\n')),
    ];
    const result = await summarizer.summarize(request(messages, { targetTokens: 250 }));
    expect(result.text).toContain('src/theme.ts');
    expect(noisy.filter((path) => result.text.includes(path)).length).toBeLessThan(noisy.length);
  });

  it('keeps actions matching the focus topic when it condenses actions', async () => {
    const result = await summarizer.summarize(request(big, { targetTokens: 1500, focusTopic: 'module-3' }));
    expect(result.text).toMatch(/READ src\/module-3\/handler\.ts/);
    expect(result.text).toContain('Focus requested: module-3');
  });

  it('stays under 60 % of the turns by default while every artifact fits', async () => {
    const messages = buildCodingSession({ steps: 24 }).messages;
    const input = messages.reduce((sum, message) => sum + counter.countMessage(message), 0);
    const capped = await createExtractiveSummarizer().summarize(request(messages, { targetTokens: input }));
    expect(counter.countText(capped.text)).toBeLessThanOrEqual(Math.floor(input * 0.6));
    expect(artifactCoverage(extractArtifacts(messages), capped.text).ratio).toBe(1);
    const roomy = await summarizer.summarize(request(messages, { targetTokens: input }));
    expect(counter.countText(roomy.text)).toBeGreaterThan(counter.countText(capped.text));
  });

  it('reports a budget it cannot meet', async () => {
    const result = await summarizer.summarize(request(big, { targetTokens: 20 }));
    expect(result.notes?.join(' ')).toMatch(/over the 20-token target|left out to fit 20 tokens/);
  });

  it('says "1 token" and "1 artifact" in its notes, not "1 tokens"', async () => {
    const result = await summarizer.summarize(request(big, { targetTokens: 1, maxTokens: 1 }));
    const notes = result.notes?.join('; ') ?? '';
    expect(notes).toMatch(/left out to fit 1 token(?!s)/);
    expect(notes).not.toMatch(/\b1 (?:tokens|artifacts)\b/);
  });
});

describe('extractive summarizer: secrets', () => {
  const call = toolCall(
    'Bash',
    { command: `git push https://user:${FAKE_TOKEN}@github.com/acme/app.git` },
    's1',
  );
  const turns = [
    userMessage(`Deploy with ${FAKE_TOKEN}.`),
    assistantMessage('Pushing.', call),
    toolResult(call, 'done'),
  ];

  it('redacts secrets by default', async () => {
    const result = await summarizer.summarize(request(turns));
    expect(result.text).not.toContain(FAKE_TOKEN);
    expect(result.text).toContain('git push');
  });

  it('keeps the text as extracted with redact: false', async () => {
    const raw = createExtractiveSummarizer({ redact: false });
    expect((await raw.summarize(request(turns))).text).toContain(FAKE_TOKEN);
  });
});
