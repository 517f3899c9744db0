import { describe, expect, it } from 'vitest';
import { checkpointAnswerProblem } from '../../src/summarizer/model/checkpoint-answer.js';
import { checkpointAnswer } from '../../src/testing.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { counter } from './helpers.js';

const TURNS = `[USER]\nFix the flaky test in src/timer.test.ts.\n\n${'[TOOL]\nFAIL src/timer.test.ts: expected 2 to be 3\n\n'.repeat(200)}`;
const check = { prompt: `Write a checkpoint.\n<turns>\n${TURNS}</turns>`, turns: TURNS, counter };

describe('a model answer is a checkpoint only when it is one', () => {
  it('accepts a template checkpoint with content', () => {
    expect(checkpointAnswerProblem(realisticCheckpoint('fix the flaky timer test'), check)).toBeUndefined();
  });

  it.each([
    ['a chatty one-liner', 'ok from fake upstream'],
    ['prose without the sections', 'The agent fixed the timer test and will now run the suite again.'],
    ['only two sections', '## Current Request\nFix it.\n\n## Next Step\nRun tests.'],
  ])('rejects %s', (_name, answer) => {
    expect(checkpointAnswerProblem(answer, check)).toMatch(/not a checkpoint/);
  });

  it('rejects an answer that only repeats the headings', () => {
    const empty = checkpointAnswer({ currentRequest: 'Fix.' });
    expect(checkpointAnswerProblem(empty, check)).toMatch(/too short/);
  });

  it('rejects an echo of the prompt or the turns', () => {
    expect(checkpointAnswerProblem(`${realisticCheckpoint('x')}\n<turns>`, check)).toMatch(/echoes/);
    expect(checkpointAnswerProblem(TURNS.slice(0, 4_000), check)).toMatch(/repeats the turns/);
  });

  it('rejects an answer over the room the checkpoint has', () => {
    const answer = realisticCheckpoint('fix the flaky timer test');
    const tokens = counter.countText(answer);
    expect(checkpointAnswerProblem(answer, { ...check, maxTokens: tokens - 1 })).toMatch(/over the/);
    expect(checkpointAnswerProblem(answer, { ...check, maxTokens: tokens })).toBeUndefined();
  });
});
