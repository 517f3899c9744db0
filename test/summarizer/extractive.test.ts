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

/** A session in which every checkpoint section has something to say. */
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
    { file_path: 'src/parser/tokenize.ts', old_string: 'a', new_string: 'b' },
    'c4',
  );
  const passingTest = toolCall('Bash', { command: 'npm test -- tokenize' }, 'c5');
  const fetchDocs = toolCall('WebFetch', { url: 'https://nodejs.org/api/util.html' }, 'c6');
  const lint = toolCall('Bash', { command: 'npm run lint' }, 'c7');
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
    assistantMessage(undefined, edit),
    toolResult(edit, 'The file src/parser/tokenize.ts has been updated.'),
    assistantMessage(undefined, passingTest),
    toolResult(passingTest, 'PASS test/tokenize.test.ts\n3 passed'),
    assistantMessage('Checking the util docs.', fetchDocs),
    toolResult(fetchDocs, 'util.inspect() returns a string representation.'),
    assistantMessage('Now I will run the linter.', lint),
    toolResult(lint, 'Error: Cannot find module eslint-plugin-unicorn\nExit code 2', { isError: true }),
    userMessage('Which Node version does this need?'),
  ];
  return { messages, latest: 'Please finish the parser docs next.' };
}

describe('extractive summarizer', () => {
  it('fills every section from a realistic session', async () => {
    const { messages, latest } = fullSession();
    const result = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    expect(result.source).toBe('extractive');
    expect(result.calls).toBe(0);
    const parsed = sections(result.text);
    for (const section of CHECKPOINT_SECTIONS) {
      expect(parsed.get(section.key), section.title).toBeDefined();
      expect(parsed.get(section.key), section.title).not.toBe('- none');
    }
    expect(parsed.get('activeTask')).toBe(latest);
    expect(parsed.get('goal')).toContain('The tokenizer breaks on emoji.');
    expect(parsed.get('constraints')).toContain('never change the public API');
    expect(parsed.get('completedActions')).toContain(
      '1. READ src/parser/tokenize.ts — ok (4 lines) [tool: Read]',
    );
    expect(parsed.get('completedActions')).toContain(
      '3. RUN `npm test -- tokenize` — failed (exit 1): AssertionError: expected 2 to equal 1',
    );
    expect(parsed.get('completedActions')).toContain('7. RUN `npm run lint` — failed (exit 2)');
    expect(parsed.get('activeState')).toContain('Working directory: /repo');
    expect(parsed.get('inProgress')).toContain('Update the parser docs');
    expect(parsed.get('blocked')).toContain('Error: Cannot find module eslint-plugin-unicorn');
    expect(parsed.get('keyDecisions')).toContain(
      'I decided to use Array.from because it iterates code points',
    );
    expect(parsed.get('resolvedQuestions')).toContain('npm test -- tokenize');
    expect(parsed.get('pendingUserAsks')).toContain('Which Node version does this need?');
    expect(parsed.get('relevantFiles')).toContain('- edited: src/parser/tokenize.ts');
    expect(parsed.get('remainingWork')).toContain('Add regression tests for unicode input');
    expect(parsed.get('completedActions')).toContain('FETCH https://nodejs.org/api/util.html');
    expect(parsed.get('criticalContext')).toContain('- Error lines seen:');
  });

  it('writes the sections in template order', async () => {
    const result = await summarizer.summarize(request(buildCodingSession().messages));
    const headings = result.text.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(CHECKPOINT_SECTIONS.map((section) => `## ${section.title}`));
  });

  it('keeps every artifact of the turns when the budget allows', async () => {
    const messages = buildCodingSession({ steps: 30 }).messages;
    const result = await summarizer.summarize(request(messages, { targetTokens: 4000 }));
    const coverage = artifactCoverage(extractArtifacts(messages), result.text);
    expect(coverage.ratio).toBe(1);
    expect(result.notes).toBeUndefined();
  });

  it('is deterministic and leaves its input alone', async () => {
    const { messages, latest } = fullSession();
    const frozen = structuredClone(messages);
    const first = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    const second = await summarizer.summarize(request(messages, { latestUserRequest: latest }));
    expect(second.text).toBe(first.text);
    expect(messages).toEqual(frozen);
  });

  it('takes the last real user message as the task when none is given', async () => {
    const messages = [
      userMessage('Build the thing.'),
      assistantMessage('Done.'),
      userMessage('[Request interrupted by user]'),
      userMessage('<local-command-stdout>ok</local-command-stdout>'),
    ];
    const result = await summarizer.summarize(request(messages));
    expect(sections(result.text).get('activeTask')).toBe('Build the thing.');
  });
});

describe('extractive summarizer: updating a previous checkpoint', () => {
  const { messages } = fullSession();
  const first = messages.slice(0, 9);
  const second = messages.slice(9);

  it('keeps earlier actions, continues the numbering and drops solved blockers', async () => {
    const failing = toolCall('Bash', { command: 'npm run build' }, 'b1');
    const earlier = [
      ...first,
      assistantMessage('Building.', failing),
      toolResult(failing, 'Error: tsc exited with 1', { isError: true }),
    ];
    const before = await summarizer.summarize(request(earlier));
    const beforeSections = sections(before.text);
    expect(beforeSections.get('blocked')).toContain('npm run build');
    const fixed = toolCall('Bash', { command: 'npm run build' }, 'b2');
    const later = [...second, assistantMessage('Building again.', fixed), toolResult(fixed, 'built in 2s')];
    const after = await summarizer.summarize(
      request(later, {
        previousSummary: renderCheckpoint(before.text, 'extractive'),
        latestUserRequest: 'Ship it.',
      }),
    );
    const afterSections = sections(after.text);
    const earlierActions = (beforeSections.get('completedActions') ?? '').split('\n');
    for (const line of earlierActions) expect(afterSections.get('completedActions')).toContain(line);
    expect(afterSections.get('completedActions')).toContain('6. RUN `npm test -- tokenize`');
    expect(afterSections.get('blocked')).not.toContain('npm run build');
    expect(afterSections.get('resolvedQuestions')).toContain('npm run build');
    expect(afterSections.get('activeTask')).toBe('Ship it.');
    expect(afterSections.get('goal')).toBe(beforeSections.get('goal'));
    expect(afterSections.get('relevantFiles')).toContain('src/parser/tokenize.ts');
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
    expect(parsed.get('goal')).toBe('Port the CLI to TypeScript.');
    expect(parsed.get('completedActions')).toMatch(
      /^1\. READ cli\.py[\s\S]*\n3\. RUN `npm test -- tokenize`/,
    );
    expect(result.text).toContain('cli.py');
  });

  it('treats a checkpoint found among the turns as the previous one, keeping the turns around it', async () => {
    const earlier = await summarizer.summarize(request(first));
    const turns = [userMessage(renderCheckpoint(earlier.text, 'extractive')), ...second];
    const result = await summarizer.summarize(request(turns));
    expect(sections(result.text).get('completedActions')).toContain('1. READ src/parser/tokenize.ts');
    expect(result.text).not.toContain('[condense checkpoint');
  });
});

describe('extractive summarizer: budget', () => {
  const big = buildCodingSession({ steps: 150 }).messages;

  it.each([3000, 1500, 800, 400])('fits %i tokens', async (target) => {
    const result = await summarizer.summarize(request(big, { targetTokens: target }));
    expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
    const headings = result.text.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toHaveLength(CHECKPOINT_SECTIONS.length);
  });

  it('gives up prose before artifacts, and says so when artifacts go', async () => {
    const artifacts = extractArtifacts(big);
    const roomy = await summarizer.summarize(request(big, { targetTokens: 2500 }));
    expect(artifactCoverage(artifacts, roomy.text).ratio).toBe(1);
    expect(roomy.text).toContain('condensed:');
    const tight = await summarizer.summarize(request(big, { targetTokens: 300 }));
    expect(artifactCoverage(artifacts, tight.text).ratio).toBeLessThan(1);
    expect(tight.notes?.join(' ')).toMatch(/artifacts left out to fit 300 tokens/);
    expect(tight.text).toMatch(/were left out to fit the budget/);
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
    expect(result.notes?.join(' ')).toMatch(/over the 20-token target/);
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
