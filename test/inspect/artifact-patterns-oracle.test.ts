import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capArtifact,
  findPaths,
  findUrls,
  isPlausiblePath,
  trimTrailing,
  URL_TRAILING,
  windowsPaths,
  withoutUrls,
} from '../../src/inspect/artifact-patterns.js';

// The URL and path readers as they were before the URL regex started from each `://` and the path test became
// one pass (issue 15), kept as oracles: a URL or path found by one and not the other changes a checkpoint.
const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`\\|{}^]+/gi;
const EXTENSION = /\.[0-9]*[A-Za-z][A-Za-z0-9]*$/;
const COMMON_ROOTS = new Set(
  'src lib libs test tests spec app apps bin docs doc packages pkg cmd internal scripts config assets public static build dist node_modules vendor include examples tools home usr var etc tmp opt'.split(
    ' ',
  ),
);

function oracleFindUrls(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimTrailing(match[0], URL_TRAILING);
    if (url.length > url.indexOf('://') + 3) out.push(capArtifact(url));
  }
  return out;
}

function oracleWithoutUrls(text: string): string {
  return text.includes('://') ? text.replace(URL_PATTERN, (url) => ' '.repeat(url.length)) : text;
}

function oracleIsPlausiblePath(token: string): boolean {
  if (token.length < 3 || token.length > 300 || !token.includes('/') || !/[A-Za-z]/.test(token)) return false;
  if (/\s/.test(token)) return false;
  if (token.startsWith('//') || token.includes('//')) return false;
  const prefixed = /^(?:\.{1,2}|~)\//.test(token);
  const absolute = token.startsWith('/');
  const trailing = token.endsWith('/');
  const segments = token.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.every((segment) => /^[.~]+$/.test(segment))) return false;
  const last = segments[segments.length - 1] ?? '';
  const hasExtension = !trailing && EXTENSION.test(last) && !/^\.+$/.test(last);
  if (prefixed) return segments.length >= 2;
  if (absolute) return segments.length >= 2 || hasExtension;
  if (hasExtension) return /^[\w@~$-]/.test(token);
  if (trailing) return segments.length >= 2;
  return (
    segments.length >= 3 && (COMMON_ROOTS.has(segments[0] ?? '') || segments.some((s) => /[_\-.\d]/.test(s)))
  );
}

function oracleFindPaths(text: string): string[] {
  if (!text.includes('/') && !text.includes('\\')) return [];
  const scanned = oracleWithoutUrls(text);
  const out: string[] = [];
  for (const match of scanned.matchAll(/[\w.\-/~@+$]+/g)) {
    const before = match.index > 0 ? scanned[match.index - 1] : '';
    if (before === '<' || before === '*') continue;
    const trimmed = trimTrailing(match[0], '.,');
    const token = /^(.*\.[A-Za-z0-9]+)-\d+-?$/.exec(trimmed)?.[1] ?? trimmed;
    if (oracleIsPlausiblePath(token)) out.push(token);
  }
  if (scanned.includes(':\\'))
    for (const path of windowsPaths(scanned)) if (path.length <= 300) out.push(path);
  return out;
}

const URL_PIECES = [
  'http',
  'https',
  'HTTPS',
  'ftp',
  'file',
  'ws',
  'wss',
  'xhttp',
  '_ws',
  '://',
  ':/',
  ':',
  '/',
  'a',
  'ex.com',
  '?u=',
  '.',
  ',',
  ')',
  '>',
  '"',
  '`',
  '\\',
  ' ',
  '\n',
  '\u00a0',
  'é',
  '\ud83d\ude00',
  '\ud800',
];
const PATH_PIECES = [
  'src',
  'lib',
  'node_modules',
  'a',
  'B',
  'x1',
  'main.ts',
  'v1.2',
  '.d.ts',
  'file.py-227-',
  'a.rs-3',
  '.',
  '..',
  '...',
  '~',
  '/',
  '//',
  '\\',
  'C:\\',
  ' ',
  '\t',
  '\u3000',
  '\u2028',
  '<',
  '*',
  ':',
  ',',
  '-',
  '_',
  '@',
  '+',
  '$',
  '7',
  'https://ex.com/a/b',
  'é',
  'é/ü.rs',
];
const urlText = fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));
const pathText = fc
  .array(fc.constantFrom(...PATH_PIECES), { maxLength: 30 })
  .map((pieces) => pieces.join(''));
// Paths built from segments, so that every rule (prefix, absolute, extension, trailing slash, three segments)
// is met and missed by a little.
const segmentPath = fc
  .tuple(
    fc.constantFrom('', '/', './', '../', '~/', '.', '@', '$'),
    fc.array(
      fc.constantFrom(
        'x1',
        'a',
        'B',
        'foo',
        'src',
        'usr',
        'my_dir',
        'a-b',
        'v2',
        '.',
        '..',
        '~',
        'main.ts',
        'a.7z',
        'b.12',
        'c.d1',
        'é',
        '',
      ),
      { minLength: 1, maxLength: 5 },
    ),
    fc.constantFrom('', '/', '.', ',', '-12-', ' ', '.rs'),
  )
  .map(([prefix, segments, suffix]) => `${prefix}${segments.join('/')}${suffix}`);
const anyText = fc.oneof(
  urlText,
  pathText,
  segmentPath,
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

describe('URL and path readers against their previous versions', () => {
  it('findUrls and withoutUrls find what matching the whole text found', () => {
    fc.assert(
      fc.property(anyText, (sample) => {
        expect(findUrls(sample)).toEqual(oracleFindUrls(sample));
        expect(withoutUrls(sample)).toBe(oracleWithoutUrls(sample));
      }),
      { numRuns: 5000 },
    );
  });

  it('isPlausiblePath decides as splitting into segments did', () => {
    fc.assert(
      fc.property(fc.oneof(segmentPath, pathText, fc.string({ maxLength: 40 })), (sample) => {
        expect(isPlausiblePath(sample)).toBe(oracleIsPlausiblePath(sample));
        const trimmed = sample.trim();
        expect(isPlausiblePath(trimmed)).toBe(oracleIsPlausiblePath(trimmed));
      }),
      { numRuns: 10000 },
    );
  });

  it('findPaths finds what it found before', () => {
    fc.assert(
      fc.property(anyText, (sample) => {
        expect(findPaths(sample)).toEqual(oracleFindPaths(sample));
      }),
      { numRuns: 5000 },
    );
  });

  it('agree on long and hostile texts', () => {
    const hostile = [
      '',
      `${'https://'.repeat(20_000)}x`,
      `${'http://a.b/'.repeat(5_000)} ${'://'.repeat(10_000)}`,
      `${':'.repeat(50_000)}//x`,
      `see https://ex.com/${')'.repeat(20_000)} and ftp://h/${'a/'.repeat(10_000)}`,
      `${'a/'.repeat(200)}b.ts ${'/.'.repeat(300)} ~/${'x'.repeat(299)}`,
      `${'src/'.repeat(74)}a.ts-12- ./${'.'.repeat(400)}/a`,
      `C:\\${'dir\\'.repeat(100)}file.txt https://x.y/C:\\a`,
      '\ud83d\ude00/\ud83d\ude00.rs wss://\ud800',
    ];
    for (const sample of hostile) {
      expect(findUrls(sample)).toEqual(oracleFindUrls(sample));
      expect(withoutUrls(sample)).toBe(oracleWithoutUrls(sample));
      expect(findPaths(sample)).toEqual(oracleFindPaths(sample));
    }
  });
});
