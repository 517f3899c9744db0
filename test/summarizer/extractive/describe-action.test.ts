import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capArtifact, firstLine } from '../../../src/inspect/artifact-patterns.js';
import { firstNonBlankLine } from '../../../src/inspect/text-lines.js';
import type { ToolResultPart } from '../../../src/model/part.js';
import { describeAction } from '../../../src/summarizer/extractive/describe-action.js';
import { toolCall, toolResult } from '../../../src/testing.js';
import { describeAction as referenceDescribeAction } from './describe-action-reference.js';
import { hostileText, toolCallPart, toolResultPart } from './fact-generators.js';

describe('describeAction', () => {
  it('runs a shell command named like an Object property, as any other command', () => {
    for (const command of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const action = describeAction(toolCall('bash', { command }, 'c1'), undefined);
      expect(action.verb).toBe('RUN');
      expect(action.command).toBe(command);
    }
    expect(
      describeAction(toolCall('str_replace_editor', { command: 'view', path: 'a.ts' }, 'c2'), undefined).verb,
    ).toBe('READ');
  });

  it('describes every call and result as the version that read each thing again did, fields in order', () => {
    fc.assert(
      fc.property(toolCallPart, fc.option(toolResultPart, { nil: undefined }), (call, result) => {
        const action = describeAction(call, result);
        const reference = referenceDescribeAction(call, result);
        expect(action).toEqual(reference);
        expect(JSON.stringify(action)).toBe(JSON.stringify(reference));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads only the head of a megabyte output on one line, and of long argument texts', () => {
    const line = `{"rows": [${'1, '.repeat(2_000_000)}2]}`;
    const call = toolCall(
      'get_rows',
      { filter: `${'a '.repeat(1_000_000)}b`, note: ' '.repeat(1_000_000) },
      'c1',
    );
    const result = toolResult(call, line).parts[0] as ToolResultPart;
    const started = performance.now();
    const action = describeAction(call, result);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(action).toEqual(referenceDescribeAction(call, result));
  });
});

/** `firstLine` as it was: the first non-blank line read whole, trimmed, then cut. */
function referenceFirstLine(text: string): string {
  const line = firstNonBlankLine(text);
  return line === '' ? '' : capArtifact(line);
}

describe('firstLine', () => {
  it('is the first non-blank line, trimmed, cut to the artifact length', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (head, tail) => {
        for (const text of [
          head,
          `${head}${tail}`,
          `${' '.repeat(195)}${head}`,
          `${'y'.repeat(197)}${head}`,
        ]) {
          expect(firstLine(text)).toBe(referenceFirstLine(text));
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads a line of megabytes only to its cut, and a run of white space after the cut to its end', () => {
    expect(firstLine(`\n \r\n${'z'.repeat(5_000_000)}`)).toBe('z'.repeat(200));
    expect(firstLine(`${'z'.repeat(199)}\uD83D\uDE00`)).toBe('z'.repeat(199));
    expect(firstLine(`${'z'.repeat(150)}${' '.repeat(3_000_000)}\nnext`)).toBe('z'.repeat(150));
  });
});
