import { checkpointAnswer } from '../../src/testing.js';

/**
 * A model answer with enough in it to stand for a few dozen turns: the validator refuses checkpoints that are
 * only headings or a line for a long stretch.
 */
export function realisticCheckpoint(
  currentRequest: string,
  originalRequest = 'Same as the current request.',
): string {
  return checkpointAnswer({
    currentRequest,
    originalRequest,
    nextStep: '- run the whole test suite once more, then write the changelog entry',
    taskState: '- [done] fix the failing handler tests\n- [pending] add a changelog entry for the fix',
    filesChanged: '- src/module-0/handler.ts (modified)\n  - defines handle0',
    failures:
      '- RUN `npm test -- module-0` failed: TypeError: handle0 is not a function → fixed: edited src/module-0/handler.ts, then `npm test -- module-0` — ok',
    actionLog: [
      '1. READ src/module-0/handler.ts — ok [tool: Read]',
      '2. RUN `npm test -- module-0` — failed (exit 1) [tool: Bash]',
      '3. EDIT src/module-0/handler.ts — ok [tool: Edit]',
      '4. RUN `npm test -- module-0` — ok [tool: Bash]',
    ].join('\n'),
  });
}
