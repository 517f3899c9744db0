import {
  EXTENSION,
  forEachSlashToken,
  trimTrailing,
  URL_TRAILING,
  withoutUrls,
} from '../inspect/artifact-patterns.js';

/**
 * Recognisers for the strings an agent needs verbatim after compaction (paths and URLs), used to decide which
 * argument values a digest must carry and which string leaves shrinking must keep whole.
 */

const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`\\|{}^]+/gi;
const URL_START = /^(?:https?|ftp|file|wss?):\/\/\S/i;
const WINDOWS_PATH = /^[A-Za-z]:\\[^\s]*$/;

/** True when the whole value is a URL. */
export function isUrl(value: string): boolean {
  return URL_START.test(value) && !/\s/.test(value.trim());
}

/**
 * True when the whole value reads as a file-system path: no whitespace, a letter, a `/` with a path-only
 * prefix (`./`, `../`, `~/`, `/`), an extension, or three segments; or a Windows drive path. Keeps MIME types,
 * dates, `and/or` and `origin/main` out.
 */
export function looksLikePath(value: string): boolean {
  if (value.length < 2 || value.length > 1000 || /\s/.test(value) || value.includes('://')) return false;
  if (WINDOWS_PATH.test(value)) return true;
  if (!value.includes('/') || !/[A-Za-z]/.test(value) || value.includes('//')) return false;
  const segments = value.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.every((segment) => /^[.~]+$/.test(segment))) return false;
  const last = segments[segments.length - 1] ?? '';
  const extension = !value.endsWith('/') && EXTENSION.test(last) && !/^\.+$/.test(last);
  if (/^(?:\.{1,2}|~)\//.test(value)) return segments.length >= 2;
  if (value.startsWith('/')) return segments.length >= 2 || extension;
  if (extension) return /^[\w@~$-]/.test(value);
  return value.endsWith('/') ? segments.length >= 2 : segments.length >= 3;
}

/** The URLs in a text, trailing punctuation removed, in order of appearance. */
export function urlsIn(text: string): string[] {
  if (!text.includes('://')) return [];
  const out: string[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimTrailing(match[0], URL_TRAILING);
    if (url.length > url.indexOf('://') + 3) out.push(url);
  }
  return out;
}

/** The path-like tokens of a text (paths inside URLs excluded), in order of appearance. */
export function pathsIn(text: string): string[] {
  if (!text.includes('/')) return [];
  const scanned = withoutUrls(text);
  const out: string[] = [];
  // Only a token with a slash can look like a path here (a Windows path's `:` and `\` end a token).
  forEachSlashToken(scanned, (token, before) => {
    if (before === '<' || before === '*') return;
    const trimmed = trimTrailing(token, '.,');
    if (looksLikePath(trimmed)) out.push(trimmed);
  });
  return out;
}
