import { CondenseError } from '../errors/condense-error.js';
import { type RedactTextResult, redactWithPasses } from './apply-candidates.js';
import { type Candidate, pushCandidate } from './candidate.js';
import { breakEscapeView, hasBreakEscapes } from './escapes.js';
import { maskSpans, unmaskedPieces } from './mask.js';
import { classifySecretName, isCredentialHeader } from './names.js';
import type { RedactOptions, UserPattern } from './options.js';
import { ResultCache } from './result-cache.js';
import type { RedactRule } from './rule.js';
import { BUILTIN_RULES } from './rules/index.js';
import { TriggerScanner } from './triggers.js';
import { isPlausibleSecret } from './values.js';
import { nameWindows } from './windows.js';
import { addWrappedContinuations } from './wrapped.js';

/** Characters of texts whose results a redactor keeps (see `result-cache.ts`): 8 M (16 MB of strings). */
const CACHE_CHARS = 8_000_000;

/** A compiled set of options: build it once, then redact many texts. */
export interface Redactor {
  /** Redacts free text (a message, a tool output, a file). */
  text(text: string): RedactTextResult;
  /**
   * Redacts a string value found under `key` in structured data (tool-call arguments, codec metadata): the
   * whole value goes when the key announces a secret, else the value is redacted as text.
   */
  field(value: string, key: string | undefined): RedactTextResult;
}

interface CompiledPattern {
  readonly kind: `custom:${string}`;
  readonly regex: RegExp;
}

/** Compiles redaction options. Throws `INVALID_OPTIONS` for a user pattern that is not a valid RegExp. */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const codeFile = options.codeFile ?? false;
  const rules = BUILTIN_RULES.filter((rule) => !(codeFile && rule.noisy));
  const patterns = (options.patterns ?? []).map(compilePattern);
  const allow = (options.allow ?? []).map((entry) =>
    typeof entry === 'string' ? entry : new RegExp(entry.source, entry.flags.replace(/[gy]/g, '')),
  );

  const scanner = new TriggerScanner(rules);

  /** Candidates of every rule whose triggers occur in `text`, pushed into `candidates`. */
  const runRules = (text: string, candidates: Candidate[]): void => {
    const from = candidates.length;
    const scan = scanner.scan(text);
    let windows: number[] | undefined;
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index] as RedactRule;
      if (!scan.runs(index, rule)) continue;
      if (rule.windowed === true) {
        windows ??= nameWindows(text);
        if (windows.length > 0) rule.find(text, candidates, scan.scope(index, windows));
      } else rule.find(text, candidates, scan.scope(index, undefined));
    }
    addWrappedContinuations(text, candidates, from);
  };

  const collect = (text: string): Candidate[] => {
    const candidates: Candidate[] = [];
    if (text.length === 0) return candidates;
    // JSON text inside the text: its escaped line breaks are lines too (same offsets).
    runRules(hasBreakEscapes(text) ? breakEscapeView(text) : text, candidates);
    for (const pattern of patterns) findUserPattern(pattern, text, candidates);
    return candidates;
  };

  const allowed = (secret: string): boolean =>
    allow.some((entry) => (typeof entry === 'string' ? entry === secret : entry.test(secret)));

  /** What is left of the candidates once masks already in the text are taken out of them, and allowed values. */
  const kept = (text: string, candidates: readonly Candidate[]): Candidate[] => {
    if (candidates.length === 0) return [];
    const spans = maskSpans(text);
    const out: Candidate[] = [];
    for (const candidate of candidates) {
      const pieces = unmaskedPieces(text, candidate.start, candidate.end, spans);
      for (let index = 0; index < pieces.length; index += 2) {
        const start = pieces[index] as number;
        let end = pieces[index + 1] as number;
        // A backslash at the end escapes what follows (the quote closing a JSON string): it stays.
        while (end > start && text.charCodeAt(end - 1) === 0x5c) end--;
        if (end === start) continue;
        if (allowed(text.slice(start, end))) continue;
        out.push(
          start === candidate.start && end === candidate.end ? candidate : { ...candidate, start, end },
        );
      }
    }
    return out;
  };

  const collectKept = (text: string): Candidate[] => kept(text, collect(text));

  const cache = new ResultCache(CACHE_CHARS);
  const redactFreeText = (text: string): RedactTextResult => {
    const cached = cache.get(text);
    if (cached !== undefined) return cached;
    const result = redactWithPasses(text, collectKept);
    cache.set(text, result);
    return result;
  };

  return {
    text: redactFreeText,
    field(value, key) {
      const nameClass = key === undefined || codeFile ? undefined : classifySecretName(key);
      const header = key !== undefined && isCredentialHeader(key) ? `${key}: ` : undefined;
      // Under a key that says nothing, a value is free text.
      if (nameClass === undefined && header === undefined) return redactFreeText(value);
      return redactWithPasses(value, (text) => {
        const candidates = collect(text);
        if (header !== undefined)
          for (const candidate of collect(header + text)) {
            const start = candidate.start - header.length;
            if (candidate.end - header.length > 0)
              candidates.push({
                ...candidate,
                start: Math.max(start, 0),
                end: candidate.end - header.length,
              });
          }
        if (key !== undefined && nameClass !== undefined && isPlausibleSecret(text, key, nameClass, true))
          pushCandidate(
            candidates,
            0,
            text.length,
            'secret-field',
            nameClass === 'password' ? 'full' : 'ends',
          );
        return kept(text, candidates);
      });
    },
  };
}

function compilePattern(pattern: UserPattern): CompiledPattern {
  const source = typeof pattern.pattern === 'string' ? pattern.pattern : pattern.pattern.source;
  const flags = typeof pattern.pattern === 'string' ? '' : pattern.pattern.flags.replace(/[gyd]/g, '');
  try {
    return { kind: `custom:${pattern.name}`, regex: new RegExp(source, `${flags}gd`) };
  } catch (error) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `redaction pattern "${pattern.name}" is not a valid regular expression: ${(error as Error).message}`,
      hint: 'write the pattern in JavaScript RegExp syntax, without surrounding slashes',
      cause: error,
    });
  }
}

function findUserPattern(pattern: CompiledPattern, text: string, out: Candidate[]): void {
  const regex = pattern.regex;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    const range = match.indices?.groups?.['secret'] ?? match.indices?.[0];
    if (range !== undefined) pushCandidate(out, range[0], range[1], pattern.kind, 'ends');
  }
}

/** The built-in rules, for benchmarks and tests that exercise one family at a time. */
export function builtinRules(): readonly RedactRule[] {
  return BUILTIN_RULES;
}
