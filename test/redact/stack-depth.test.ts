import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/redact/index.js';
import { LINE_ASSIGNMENT, SPACE_ASSIGNMENT } from '../../src/redact/rules/assignments.js';
import { CONFIG_SET, nextHtpasswd } from '../../src/redact/rules/commands.js';
import { NAMED } from '../../src/redact/rules/inline-assignments.js';
import { isDotted, isPathShaped } from '../../src/redact/values.js';
import type { Matcher } from '../../src/redact/windows.js';

// The patterns these replaced: the oracles. Each repeated a group whose body is not one character class, which
// V8 runs by pushing backtracking state for every iteration: on millions of iterations (a text of megabytes)
// it threw `RangeError: Maximum call stack size exceeded`, and `condense redact` lost the whole file.
const OLD_NAMED =
  /(?:pass(?:word|wd|phrase)?|pwd|secrets?|credentials?|jwt|bearer|tokens?|keys?|auth|pat)(?:[_-]?[0-9])*(?![\w-])(?:([ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+)|([ \t]*[:=](?![=:/>~])[ \t]*))/gi;
const OLD_CONFIG_SET =
  /(?<![\w-])(?:aws[ \t]+configure|(?:npm|yarn|pnpm|git)[ \t]+config)(?:[ \t]+--?[A-Za-z][\w-]{0,30})*(?:[ \t]+set)?[ \t]+([A-Za-z_/.:@][\w./:@-]{0,120})[ \t]+(?=[^\s-])/g;
const OLD_HTPASSWD = /(?<![\w-])htpasswd((?:[ \t]+-[A-Za-z]{1,10})+)[ \t]+/g;
const OLD_LINE_ASSIGNMENT =
  /(?:^|(?<=[:[][ \t]*\\*"))[ \t]*(?:[-*+>][ \t]+)?(?:(?:export|ENV|ARG|set|setx|declare|typeset|readonly|local|let|const|var)[ \t]+(?:-[A-Za-z]+[ \t]+)*|-[ \t]+|\$env:)?["']?([A-Za-z_@$][\w.@$-]{0,99})["']?[ \t]*(=|:=|\?=|\+=|:(?![:=/]))[ \t]*/gm;
const OLD_SPACE_ASSIGNMENT =
  /(?:^|(?<=[:[][ \t]*\\*"))[ \t]*(?:[-*+>][ \t]+)?(?:ENV[ \t]+|set[ \t]+(?:-[A-Za-z]+[ \t]+)+)([A-Za-z_]\w{0,99})[ \t]+(?=[^\s=])/gm;
const OLD_DOTTED = /^[A-Za-z_$][\w$]*(?:(?:\.|->|::|\?\.)[A-Za-z_$][\w$]*)+$/;
const OLD_PATH = /^(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?$/;

const WHITESPACE = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff'];

function textOf(pieces: readonly string[], maxLength = 24) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

/** What a global matcher finds when a scan resumes at `from`, as the windowed scans resume it. */
function matchFrom(regex: Matcher, text: string, from: number) {
  regex.lastIndex = from;
  const match = regex.exec(text);
  return match === null ? null : { index: match.index, groups: [...match], lastIndex: regex.lastIndex };
}

/** The old htpasswd regex's answer in the shape of `nextHtpasswd`'s. */
function oldHtpasswd(text: string, from: number) {
  OLD_HTPASSWD.lastIndex = from;
  const match = OLD_HTPASSWD.exec(text);
  return match === null ? undefined : { flags: match[1] ?? '', end: OLD_HTPASSWD.lastIndex };
}

describe('redaction patterns that overflowed the regex stack on megabytes', () => {
  it('the prose-name pattern matches what the old one matched, from every position', () => {
    const text = textOf([
      'password',
      'Key',
      'pat',
      'tokens',
      '1',
      '0',
      '_',
      '-',
      '__',
      'is',
      ':',
      '=',
      '/',
      'x',
      ...WHITESPACE,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        for (let from = 0; from <= value.length; from++)
          expect(matchFrom(NAMED, value, from)).toEqual(matchFrom(OLD_NAMED, value, from));
      }),
      { numRuns: 3000 },
    );
  });

  it('the assignment matchers match what the old regexes matched, from every position', () => {
    // Lines shaped like assignments (lead, marker, keyword, flags, name, operator, value) with noise in every
    // part, so that the flag runs are often there and often broken.
    const line = fc
      .tuple(
        textOf(['', ' ', '\t', '"', ':"', '[ \\"', 'x'], 2),
        fc.constantFrom('', '- ', '* ', '>\t', '-'),
        fc.constantFrom('', 'export ', 'set ', 'setx ', 'ENV ', 'declare\t', 'local', '$env:', 'set'),
        fc.oneof(
          textOf(['-a ', '-gx\t', '-b  '], 3),
          textOf(['-a ', '-gx\t', '-', '-1 ', 'a ', ' ', '-b'], 3),
        ),
        fc.constantFrom('DB_PASSWORD', 'X', '"X"', "'a.b'", '@x', '1', '', ' X'),
        fc.constantFrom('=', ':', ':=', '+=', '?=', ' v', '\t=', ':/', ' -', ' ', '=v', '\u00a0v'),
      )
      .map((parts) => parts.join(''));
    const text = fc
      .tuple(fc.array(line, { maxLength: 3 }), fc.constantFrom('\n', '\r\n', '\\n'))
      .map(([lines, separator]) => lines.join(separator));
    fc.assert(
      fc.property(text, (value) => {
        for (let from = 0; from <= value.length; from++) {
          expect(matchFrom(LINE_ASSIGNMENT, value, from)).toEqual(
            matchFrom(OLD_LINE_ASSIGNMENT, value, from),
          );
          expect(matchFrom(SPACE_ASSIGNMENT, value, from)).toEqual(
            matchFrom(OLD_SPACE_ASSIGNMENT, value, from),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the config-set matcher matches what the old regex matched, from every position', () => {
    const command = fc
      .tuple(
        textOf(['x', ' ', '-', '\n'], 2),
        fc.constantFrom(
          'git config',
          'npm config',
          'aws configure',
          'pnpm \tconfig',
          'git',
          'aws  configure',
        ),
        fc.oneof(
          textOf([' -a', ' --global', '\t-b1', ` --a${'y'.repeat(29)}`, ` --a${'y'.repeat(30)}`, ' -a='], 3),
          textOf([' ', '-', '--', '-a', 'a', '=x'], 3),
        ),
        fc.constantFrom('', ' set', '\tset', 'set'),
        fc.constantFrom(' user.password', ' -x', ' ', ' :a', '\u00a0a', ' a', ` ${'k'.repeat(121)}`),
        fc.constantFrom(' v', ' ', ' -v', '\tv', '\n v', '', ' "v"'),
      )
      .map((parts) => parts.join(''));
    const text = fc.array(command, { maxLength: 2 }).map((commands) => commands.join(''));
    fc.assert(
      fc.property(text, (value) => {
        for (let from = 0; from <= value.length; from++)
          expect(matchFrom(CONFIG_SET, value, from)).toEqual(matchFrom(OLD_CONFIG_SET, value, from));
      }),
      { numRuns: 3000 },
    );
  });

  it('the htpasswd scan finds the flags and the end the old regex found, from every position', () => {
    const command = fc
      .tuple(
        textOf(['x', ' ', '-', '\n'], 2),
        fc.constantFrom('htpasswd', 'htpasswd', 'xhtpasswd', '-htpasswd'),
        fc.oneof(
          textOf([' -b', ' -nb', '\t-c', ' -abcdefghij', ' -abcdefghijk', ' \t-B'], 3),
          textOf([' ', '-', 'a', '-b', '=', '\u00a0'], 3),
        ),
        fc.constantFrom(' ', '', '\t f', ' f', '=', 'x', ' -', '\n f'),
      )
      .map((parts) => parts.join(''));
    const text = fc.array(command, { maxLength: 2 }).map((commands) => commands.join(''));
    fc.assert(
      fc.property(text, (value) => {
        for (let from = 0; from <= value.length; from++)
          expect(nextHtpasswd(value, from)).toEqual(oldHtpasswd(value, from));
      }),
      { numRuns: 3000 },
    );
  });

  it('the identifier-path and path checks accept what the old regexes accepted', () => {
    const dotted = textOf(
      ['a', 'B', '_', '$', '1', '.', '-', '>', '->', ':', '::', '?', '?.', ' ', '\n'],
      12,
    );
    const path = textOf(['~', '.', '..', '/', '//', 'a', '1', '@', '+', '-', '_', ' ', '\n', ':'], 12);
    fc.assert(
      fc.property(dotted, path, (identifier, file) => {
        expect(isDotted(identifier)).toBe(OLD_DOTTED.test(identifier));
        expect(isPathShaped(file)).toBe(OLD_PATH.test(file));
      }),
      { numRuns: 10_000 },
    );
  });

  // Each input below threw `Maximum call stack size exceeded` with the old patterns.
  const redactor = createRedactor({});

  it('masks a batch htpasswd password after millions of flags', () => {
    const flags = ' -a'.repeat(4_000_000);
    expect(redactor.text(`htpasswd -b${flags} users admin Xy7pq9Zk`).text).toBe(
      `htpasswd -b${flags} users admin ${REDACTED}`,
    );
  });

  it('masks an assignment after millions of flags', () => {
    const flags = '-a '.repeat(4_000_000);
    expect(redactor.text(`export ${flags}DB_PASSWORD=Xy7pq9Zk`).text).toBe(
      `export ${flags}DB_PASSWORD=${REDACTED}`,
    );
    expect(redactor.text(`set ${flags}DB_PASSWORD Xy7pq9Zk`).text).toBe(
      `set ${flags}DB_PASSWORD ${REDACTED}`,
    );
  });

  it('masks a config-set secret after millions of options', () => {
    const options = ' -a'.repeat(4_000_000);
    expect(redactor.text(`git config${options} user.password Xy7pq9Zk`).text).toBe(
      `git config${options} user.password ${REDACTED}`,
    );
  });

  it('reads a secret name followed by 12 million digits', () => {
    const name = `password${'1'.repeat(12_000_000)}`;
    expect(() => redactor.text(`${name}=Xy7pq9Zk`)).not.toThrow();
    const separated = `password${'_1'.repeat(6_000_000)}`;
    expect(() => redactor.text(`my ${separated} is Xy7pq9Zk`)).not.toThrow();
  });

  it('tells a path or an identifier path of megabytes', () => {
    expect(isPathShaped(`/x${'/x'.repeat(6_000_000)}`)).toBe(true);
    expect(isDotted(`a${'.a'.repeat(6_000_000)}`)).toBe(true);
    expect(redactor.text(`password=/x${'/x'.repeat(6_000_000)}`).findings).toEqual([]);
  });
});
