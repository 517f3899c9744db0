import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFacts } from '../../../src/summarizer/extractive/collect-facts.js';
import { heredocBody, inlineCommitMessage } from '../../../src/summarizer/extractive/task-state.js';
import { assistantMessage, toolCall, toolResult, userMessage } from '../../../src/testing.js';

// The regex inlineCommitMessage replaces: the oracle, fast on short strings only.
const INLINE_COMMIT = /\bgit\s+commit\b[^\n]*?-m\s+(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/;
const HEREDOC = /<<\s*'?"?(\w+)'?"?\s*\n([\s\S]*?)\n\s*\1\b/;

function textOf(pieces: readonly string[], maxLength = 20) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

function trackerOf(command: string) {
  const call = toolCall('bash', { command }, 'c1');
  return collectFacts([userMessage('go'), assistantMessage('ok', call), toolResult(call, 'ok')]).tracker;
}

describe('commit messages of tracker steps', () => {
  it('reads the inline message the regex reads', () => {
    const text = textOf([
      'git commit',
      'git',
      'commit',
      '-m',
      " -m 'a'",
      ' -m "a"',
      ' ',
      '\n',
      '\r',
      '"',
      "'",
      '\\',
      'a',
      '-',
      'x',
      '\t',
      '\u2028',
      '\u00a0',
      '-m\n',
    ]);
    fc.assert(
      fc.property(text, (value) => {
        const expected = INLINE_COMMIT.exec(value);
        const found = inlineCommitMessage(value);
        const double = found?.quote === '"' ? found.text : undefined;
        const single = found?.quote === "'" ? found.text : undefined;
        expect([double, single]).toEqual([expected?.[1], expected?.[2]]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the heredoc body the regex reads', () => {
    const text = textOf(
      ['<<', '<<EOF', 'EOF', 'E', 'OF', '<', "'", '"', '\n', '\n', ' ', '\t', '\r', 'x', '-'],
      24,
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(heredocBody(value)).toBe(HEREDOC.exec(value)?.[2]);
      }),
      { numRuns: 30_000 },
    );
  });

  it('reads a message of megabytes without overflowing the stack, closed or not', () => {
    // The regex threw "Maximum call stack size exceeded" on both, and the checkpoint fell back to a marker.
    const open = `git commit -m "a\n${'git commit -m \n'.repeat(640_000)}`;
    expect(inlineCommitMessage(open)).toBeUndefined();
    const escaped = 'ab\\"c\\\\d'.repeat(1_000_000);
    expect(inlineCommitMessage(`git commit -m "${escaped}"`)).toEqual({ text: escaped, quote: '"' });
    expect(trackerOf(`git commit -m "${escaped.slice(0, 60)}"`).map((step) => step.commit)).toHaveLength(1);
  });

  it('reads hostile commands in linear time: many commits on one line, many commit lines', () => {
    // Quadratic before: 256 KB of `git commit` on one line, 2.0 s; 64 KB of `git commit -a` lines, 0.36 s.
    const many = trackerOf(`git commit${' git commit'.repeat(100_000)} -m 'done'`);
    expect(many.map((step) => step.commit)).toEqual(['done']);
    const lines = trackerOf(`${'git commit -a\n'.repeat(100_000)}git commit -m "last"`);
    expect(lines).toHaveLength(100_001);
    expect(new Set(lines.map((step) => step.commit))).toEqual(new Set(['last']));
    // Cubic and quadratic before: 256 KB of unterminated `<<A` lines, 8.7 s.
    const heredocs = trackerOf(`git commit -F - ${'<<A\n'.repeat(100_000)}${'<<B\n'.repeat(100_000)}\n\nB\n`);
    expect(heredocs.map((step) => step.commit)).toEqual(['<<B']);
    const code = `cat > a.cpp <<'EOF'\n${'  std::cout << x << y;\n'.repeat(50_000)}EOF\ngit commit -F - <<MSG\nAdd a\nMSG`;
    expect(trackerOf(code).map((step) => step.commit)).toEqual(['std::cout << x << y;']);
  });
});
