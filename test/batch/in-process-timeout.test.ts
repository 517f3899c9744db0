import { describe, expect, it } from 'vitest';
import { createInProcessExecutor, type Timers } from '../../src/batch/entry-executor.js';
import { extractiveRuntime, shareGptLine, testConfig } from './helpers.js';

/** Timers whose timeout never fires (the thread is busy) and whose clock jumps `step` ms at every reading. */
function busyThread(step: number): Timers {
  let now = 0;
  return {
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    now: () => {
      const at = now;
      now += step;
      return at;
    },
  };
}

describe('in-process executor (--workers 0)', () => {
  const job = { id: 1, format: 'sharegpt' as const, text: shareGptLine(0), line: 1 };

  it('counts a result that arrives after the deadline as timed out and keeps the entry as it was', async () => {
    const executor = createInProcessExecutor(extractiveRuntime(), testConfig(), 1000, busyThread(5000));
    const result = await executor.run(job);
    expect(result.outcome).toBe('timed-out');
    expect(result.text).toBe(job.text);
    expect(result.message).toMatch(/no result within 1 s/);
  });

  it('keeps a result that arrives in time', async () => {
    const executor = createInProcessExecutor(extractiveRuntime(), testConfig(), 1000, busyThread(10));
    expect((await executor.run(job)).outcome).toBe('compressed');
  });

  it('reports a line that is not JSON as invalid, however long it took', async () => {
    const executor = createInProcessExecutor(extractiveRuntime(), testConfig(), 1000, busyThread(5000));
    expect((await executor.run({ ...job, text: '{oops' })).outcome).toBe('invalid');
  });
});
