import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandName, endsWithSweAgentFooter } from '../../src/transforms/harness-markup.js';
import { classifyUserText } from '../../src/transforms/user-turns.js';

const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const SWE_AGENT_FOOTER = /\(Open file: [^)\n]*\)\s*\n?\s*\(Current directory: [^)\n]*\)\s*\n?\s*bash-\$\s*$/;

function textOf(pieces: readonly string[]) {
  return fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(''));
}

const WHITESPACE = [' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\ufeff'];

describe('harness markup scans', () => {
  it('read the command name the regex reads', () => {
    const text = textOf(['<command-name>', '</command-name>', '<', '/', 'clear', 'x', ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        expect(commandName(value)).toBe(COMMAND_NAME.exec(value)?.[1]);
      }),
      { numRuns: 3000 },
    );
  });

  it("tell SWE-agent's footer as the regex does", () => {
    const text = textOf([
      '(Open file: ',
      '(Current directory: ',
      '(',
      ')',
      'bash-$',
      'bash-',
      '/tmp',
      'a',
      ...WHITESPACE,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        expect(endsWithSweAgentFooter(value)).toBe(SWE_AGENT_FOOTER.test(value));
      }),
      { numRuns: 5000 },
    );
    const footer = '(Open file: /repo/a.py)\n(Current directory: /repo)\nbash-$';
    expect(endsWithSweAgentFooter(`output\n${footer}\n`)).toBe(true);
    expect(endsWithSweAgentFooter(`${footer} more`)).toBe(false);
  });

  it('classify hostile user texts in linear time: unclosed tags and long runs of whitespace', () => {
    // The regexes took cubic time on the first (minutes at 2,000 spaces) and quadratic time on the others.
    const spaces = ' '.repeat(1_000_000);
    expect(classifyUserText(`<command-name>${spaces}x<`)).toBe('prompt');
    expect(classifyUserText(`<command-name>a</command-name>${'<command-args> b '.repeat(200_000)}`)).toBe(
      'command',
    );
    expect(classifyUserText(`fix it ${'<system-reminder> a '.repeat(200_000)}`)).toBe('prompt');
    expect(classifyUserText(`(Open file: a)${spaces}x`)).toBe('prompt');
    expect(classifyUserText(`${'(Open file: '.repeat(200_000)})\n(Current directory: /)\nbash-$`)).toBe(
      'observation',
    );
  });
});
