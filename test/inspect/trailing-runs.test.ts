import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXTENSION,
  findPaths,
  findUrls,
  trimTrailing,
  URL_TRAILING,
} from '../../src/inspect/artifact-patterns.js';
import { extractArtifacts } from '../../src/inspect/artifacts.js';
import { toolResult } from '../../src/testing.js';
import { pathsIn, urlsIn } from '../../src/transforms/artifact-shapes.js';

// The regexes the scans replaced (issue 15): each retried a run from every character in it when the run was
// not at the end, so an 80 KB run inside one token took seconds.
const OLD_URL_TRAILING = /[.,;:!?)\]}*_>]+$/;
const OLD_PATH_TRAILING = /[.,]+$/;
const OLD_EXTENSION = /\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$/;
const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`\\|{}^]+/gi;

function referenceUrls(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(OLD_URL_TRAILING, '');
    if (url.length > url.indexOf('://') + 3) out.push(url);
  }
  return out;
}

function textOf(pieces: readonly string[], maxLength = 30) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

const PUNCTUATION = [
  '.',
  ',',
  ';',
  ':',
  '!',
  '?',
  ')',
  ']',
  '}',
  '*',
  '_',
  '>',
  '(',
  '[',
  '<',
  '-',
  '$',
  '/',
];
const OTHERS = ['a', 'Z', '0', ' ', '\n', '\r', '\u2028', 'é', '\ud83d\ude00', '\ud83d'];

describe('trailing runs cut by a scan from the end', () => {
  it('trimTrailing cuts what the `[…]+$` regexes cut', () => {
    fc.assert(
      fc.property(fc.oneof(textOf([...PUNCTUATION, ...OTHERS]), fc.string({ maxLength: 40 })), (value) => {
        expect(trimTrailing(value, URL_TRAILING)).toBe(value.replace(OLD_URL_TRAILING, ''));
        expect(trimTrailing(value, '.,')).toBe(value.replace(OLD_PATH_TRAILING, ''));
      }),
      { numRuns: 5000 },
    );
  });

  it('findUrls and urlsIn find the URLs the regex trim found', () => {
    const text = textOf([
      'https://',
      'ftp://',
      'a.io',
      'http',
      '://',
      '/x',
      ...PUNCTUATION,
      ...OTHERS,
      '"',
      '|',
    ]);
    fc.assert(
      fc.property(text, (value) => {
        const expected = referenceUrls(value);
        expect(urlsIn(value)).toEqual(expected);
        expect(findUrls(value)).toEqual(expected.map((url) => url.slice(0, 200)));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads long runs of punctuation inside a token in linear time', () => {
    // The regex trims took minutes on these megabyte runs (3.7 s at 80 KB).
    const run = 1_000_000;
    const dots = `a/${'.'.repeat(run)}x`;
    expect(pathsIn(dots)).toEqual([]);
    expect(findPaths(dots)).toEqual([]);
    expect(pathsIn(`see src/a.ts${'.'.repeat(run)}`)).toEqual(['src/a.ts']);
    const parens = `http://a/${')'.repeat(run)}x`;
    expect(urlsIn(parens)).toEqual([parens]);
    expect(findUrls(parens)).toEqual([parens.slice(0, 200)]);
    expect(urlsIn(`see http://a.io/x${')'.repeat(run)}`)).toEqual(['http://a.io/x']);
    const artifacts = extractArtifacts([toolResult('c1', `${dots}\n${parens}\n${'!'.repeat(run)}`)]);
    expect([...artifacts.paths]).toEqual([]);
    expect([...artifacts.urls]).toEqual([parens.slice(0, 200)]);
  });
});

describe('extensions', () => {
  it('EXTENSION tells what the two-way regex told', () => {
    const text = textOf(['.', 'a', 'Z', '0', '9', '-', '_', '/', '..', 'é', ' ', '\n'], 20);
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 20 })), (value) => {
        expect(EXTENSION.test(value)).toBe(OLD_EXTENSION.test(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('tests long path candidates in time linear in each', () => {
    // Every candidate up to 1,000 characters was tested, at a millisecond each with the two-way regex.
    const long = `src/.${'A'.repeat(990)}`;
    const text = `${long}- ${long}9 ${long}.A `.repeat(300);
    expect(pathsIn(text)).toEqual(Array.from({ length: 300 }, () => [`${long}9`, `${long}.A`]).flat());
    expect(findPaths(text)).toEqual([]);
  });
});
