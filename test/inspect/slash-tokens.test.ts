import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPaths, isPlausiblePath, withoutUrls } from '../../src/inspect/artifact-patterns.js';
import { looksLikePath, pathsIn } from '../../src/transforms/artifact-shapes.js';

// Both path finders as they were before they went from slash to slash (issue 15): every word of the text was
// matched and tested. The faster scan must find the same tokens in the same order.
const PATH_TOKEN = /[\w.\-/~@+$]+/g;
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[\w.\-@+$ ]+\\)*[\w.\-@+$]+/g;
const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`\\|{}^]+/gi;

function referenceFindPaths(text: string): string[] {
  if (!text.includes('/') && !text.includes('\\')) return [];
  const scanned = withoutUrls(text);
  const out: string[] = [];
  for (const match of scanned.matchAll(PATH_TOKEN)) {
    const before = match.index > 0 ? scanned[match.index - 1] : '';
    if (before === '<' || before === '*') continue;
    const trimmed = match[0].replace(/[.,]+$/, '');
    const token = /^(.*\.[A-Za-z0-9]+)-\d+-?$/.exec(trimmed)?.[1] ?? trimmed;
    if (isPlausiblePath(token)) out.push(token);
  }
  if (scanned.includes(':\\')) {
    for (const match of scanned.matchAll(WINDOWS_PATH)) if (match[0].length <= 300) out.push(match[0]);
  }
  return out;
}

function referencePathsIn(text: string): string[] {
  if (!text.includes('/')) return [];
  const scanned = text.includes('://') ? text.replace(URL_PATTERN, (url) => ' '.repeat(url.length)) : text;
  const out: string[] = [];
  for (const match of scanned.matchAll(PATH_TOKEN)) {
    const before = match.index > 0 ? scanned[match.index - 1] : '';
    if (before === '<' || before === '*') continue;
    const token = match[0].replace(/[.,]+$/, '');
    if (looksLikePath(token)) out.push(token);
  }
  return out;
}

const PIECES = [
  'src',
  'lib',
  'a',
  'x1',
  'main.ts',
  'file.py-227-',
  '.',
  '..',
  '~',
  '/',
  '//',
  '\\',
  'C:',
  ' ',
  '\n',
  '\t',
  '<',
  '*',
  ':',
  ',',
  '.,',
  '-',
  '_',
  '@',
  '+',
  '$',
  'https://ex.com/a/b',
  'é',
  '中',
  'and/or',
  '</div>',
  'é/ü.rs',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('path tokens found from slash to slash', () => {
  it('findPaths finds what matching every token found, in the same order', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 60 })), (sample) => {
        expect(findPaths(sample)).toEqual(referenceFindPaths(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it('pathsIn finds what matching every token found, in the same order', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 60 })), (sample) => {
        expect(pathsIn(sample)).toEqual(referencePathsIn(sample));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a long text of slashes and words in one pass', () => {
    const long = `${'word '.repeat(50_000)}${'a/'.repeat(50_000)}b.ts ${'/'.repeat(50_000)}`;
    expect(findPaths(long)).toEqual(referenceFindPaths(long));
    expect(pathsIn(long)).toEqual(referencePathsIn(long));
  });
});
