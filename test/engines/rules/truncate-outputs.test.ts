import { describe, expect, it } from 'vitest';
import { truncateToolResult } from '../../../src/engines/rules/truncate-output.js';
import { toolResultText } from '../../../src/model/message-helpers.js';
import type { ToolResultPart } from '../../../src/model/part.js';
import { image, result } from '../../transforms/support.js';

const REF = { label: 'm7', hash: '0123abcd' };
const LIMITS = { maxChars: 500, headLines: 10, tailLines: 5 };

function numbered(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}: ${'.'.repeat(30)}`).join('\n');
}

function textOf(part: ToolResultPart | undefined): string {
  return part === undefined ? '' : toolResultText(part.content);
}

describe('rule 2: truncate large tool outputs that stay', () => {
  it('keeps the first 10 and last 5 lines around a marker with the number of lines cut and a reference', () => {
    const cut = truncateToolResult(result('c', numbered(100)), LIMITS, REF);
    const lines = textOf(cut).split('\n');
    expect(lines.slice(0, 10)).toEqual(numbered(10).split('\n'));
    expect(lines.slice(-5)).toEqual(numbered(100).split('\n').slice(-5));
    expect(lines[10]).toMatch(/^\[truncated: 85 lines \([\d,]+ chars\) cut here · ref=m7#0123abcd\]$/);
    expect(lines).toHaveLength(16);
  });

  it('lists the paths, URLs and error lines of the cut part in the marker', () => {
    const middle = [
      'Traceback (most recent call last):',
      '  File "/srv/app/worker.py", line 12, in run',
      'ValueError: bad input, see https://docs.example.com/errors#bad-input',
    ];
    const text = [...numbered(20).split('\n'), ...middle, ...numbered(20, 'tail').split('\n')].join('\n');
    const marker = textOf(truncateToolResult(result('c', text), LIMITS, REF))
      .split('\n')
      .find((line) => line.startsWith('[truncated:'));
    expect(marker).toContain('/srv/app/worker.py');
    expect(marker).toContain('https://docs.example.com/errors#bad-input');
    expect(marker).toContain('"ValueError: bad input, see https://docs.example.com/errors#bad-input"');
    expect(marker).toContain('"Traceback (most recent call last):"');
  });

  it('shortens over-long lines when there are too few lines to cut', () => {
    const minified = `{"data":"${'x'.repeat(5_000)}"}`;
    const text = textOf(truncateToolResult(result('c', minified), LIMITS, REF));
    expect(text.length).toBeLessThan(700);
    expect(text).toContain('[+4,511 chars]');
    expect(text).toMatch(/\[truncated: 1 long line shortened · ref=m7#0123abcd\]$/);
  });

  it('leaves short outputs, outputs already cut, and cuts that would not shrink anything alone', () => {
    expect(truncateToolResult(result('c', 'short'), LIMITS, REF)).toBeUndefined();
    const once = truncateToolResult(result('c', numbered(100)), LIMITS, REF) as ToolResultPart;
    expect(truncateToolResult(once, { ...LIMITS, maxChars: 50 }, REF)).toBeUndefined();
    expect(truncateToolResult(result('c', numbered(15)), LIMITS, REF)).toBeUndefined();
  });

  it('keeps images, the error flag and the tool name of the result', () => {
    const part = result('c', numbered(60), { isError: true, extra: [image()], name: 'bash' });
    const cut = truncateToolResult(part, LIMITS, REF) as ToolResultPart;
    expect(cut.isError).toBe(true);
    expect(cut.name).toBe('bash');
    expect(cut.content.map((item) => item.type)).toEqual(['text', 'image']);
  });

  it('cuts harder with the strict preset limits', () => {
    const strict = textOf(
      truncateToolResult(result('c', numbered(100)), { maxChars: 200, headLines: 5, tailLines: 3 }, REF),
    );
    const normal = textOf(truncateToolResult(result('c', numbered(100)), LIMITS, REF));
    expect(strict.split('\n')).toHaveLength(9);
    expect(strict.length).toBeLessThan(normal.length);
  });
});
