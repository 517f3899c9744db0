import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capArtifact, findErrorLines, isErrorLine } from '../../src/inspect/artifact-patterns.js';
import { extractArtifacts, resultErrorLines } from '../../src/inspect/artifacts.js';
import { definitionNames, IDENTIFIER, identifierTokens } from '../../src/inspect/code-identifiers.js';
import type { Message } from '../../src/model/message.js';
import type { ToolResultPart } from '../../src/model/part.js';

// The identifier and error-word patterns as they were before the keyword atom's `:` came before its look-behind,
// the word forms shared one `\b`, and `error`/`exception` ending a word replaced `\b…\b` plus `\w(?:Error|…)\b`
// (issue 15), kept as oracles: a token or error line found by one and not the other changes a checkpoint.
const OLD_IDENTIFIER =
  /@[a-z_][a-z0-9_]*|(?<=[\s([,{]):[a-z_][a-z0-9_]*[?!]?|\b[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9.]*?(?:(?![A-Za-z0-9_]|\.[A-Z])|(?=\.[A-Z][A-Za-z0-9]*_))|\b[a-z][a-z0-9]*_[a-z0-9][a-z0-9_]*?(?![a-z0-9]|_[a-z0-9])[?!]?|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z](?![A-Za-z0-9]*[A-Z][A-Z])[a-z0-9]+[A-Z][A-Za-z0-9]*[a-z0-9]\b/g;
const OLD_ERROR_WORDS =
  /\b(?:error|errors|exception|traceback|failed|failure|fatal|denied|not found|no such file|panic|segmentation fault|E(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT))\b|\w(?:Error|Exception)\b|ERR!/i;
const OLD_ERROR_SCAN = new RegExp(OLD_ERROR_WORDS.source, 'gi');
const NOT_AN_ERROR = /\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b/i;
const EMPTY_ERROR_FIELD = /\\?["']?error\\?["']?\s*[:=]\s*(?:\\?"\\?"|\\?'\\?'|null|None|false|\[\]|\{\})/gi;
const CODE_LIKE =
  /^(?:raise|except|catch|throw|def|class|function|import|from|export|const|let|var|if|elif|else|return|assert|#|\/\/|\*|\/\*)\b|\b(?:console|logger|log|logging)\.(?:error|exception|warn)\(|\bexcept\s+\w*(?:Error|Exception)|\bnew \w*Error\(|=>|\bcatch\s*\(/;

// The definition keywords as one list, before they were grouped by their first letters; with the receiver and
// name after them, what `definitionNames` reads.
const OLD_DEFINITION =
  /\b(?:def|defp|defmacrop?|defmodule|defprotocol|defimpl|defstruct|defguardp?|defdelegate|function\*?|class|interface|type|enum|struct|trait|impl|fn|func|module|namespace|protocol|extension|record|object|fun|sub|proc|macro_rules!|create\s+(?:or\s+replace\s+)?(?:table|view|function|index|procedure))\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$.!?]*)/g;

function matches(regex: RegExp, text: string): string[] {
  return [...text.matchAll(regex)].map((match) => `${match.index}:${match[0]}`);
}

function oracleFindErrorLines(text: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  OLD_ERROR_SCAN.lastIndex = 0;
  for (let match = OLD_ERROR_SCAN.exec(text); match !== null; match = OLD_ERROR_SCAN.exec(text)) {
    let start = match.index;
    while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
    let end = match.index + match[0].length;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    OLD_ERROR_SCAN.lastIndex = end;
    const line = text.slice(start, end).trim();
    if (line.length < 4) continue;
    const capped = capArtifact(line);
    if (seen.has(capped)) continue;
    seen.add(capped);
    found.push(capped);
  }
  return found;
}

function oracleIsErrorLine(line: string): boolean {
  if (line.length < 4 || !OLD_ERROR_WORDS.test(line.replace(EMPTY_ERROR_FIELD, ''))) return false;
  if (NOT_AN_ERROR.test(line)) return false;
  return !CODE_LIKE.test(line);
}

const identifierText = fc
  .array(
    fc.constantFrom(
      'A',
      'B',
      'a',
      'b',
      'z',
      '1',
      '.',
      '_',
      '?',
      '!',
      ' ',
      '\t',
      '@',
      ':',
      '(',
      '[',
      ',',
      '{',
      'x.Y',
      'Ab',
      'aB',
      'a_b',
      ':ok',
      '(:a',
      'é',
      '😀',
      '\uD800',
      '-',
      '$',
      '\n',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

const errorText = fc
  .array(
    fc.constantFrom(
      'error',
      'Error',
      'ERROR',
      'errors',
      'xerror',
      'TypeError',
      'Exception',
      'exceptions',
      'ValueException',
      'errored',
      'failed',
      'Failure',
      'not found',
      'ENOENT',
      'ERR!',
      'err',
      '_',
      'x',
      '1',
      ' ',
      ':',
      '"',
      '\n',
      '\r',
      '\r\n',
      'é',
      '😀',
      '0 errors',
      'error: 0',
      '{"error": ""}',
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('identifier tokens', () => {
  it('are the matches of the pattern before its look-behind and word boundaries were reordered', () => {
    fc.assert(
      fc.property(identifierText, (value) => {
        expect(matches(IDENTIFIER, value)).toEqual(matches(OLD_IDENTIFIER, value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agree on code-like text and stay linear on long runs', () => {
    const code = 'def run_all(:ok, fooBar, Foo.Bar_baz, FooBarBaz, @attr) {\n  return x.Y_z\n}\n';
    expect(matches(IDENTIFIER, code)).toEqual(matches(OLD_IDENTIFIER, code));
    const run = `${'a'.repeat(200_000)}${':'.repeat(200_000)}${' :'.repeat(100_000)}`;
    const started = performance.now();
    expect(identifierTokens(run)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

const definitionText = fc
  .array(
    fc.constantFrom(
      'def',
      'defp',
      'defmacro',
      'defmacrop',
      'defmodule',
      'defprotocol',
      'defimpl',
      'defstruct',
      'defguard',
      'defguardp',
      'defdelegate',
      'function',
      'function*',
      'class',
      'interface',
      'type',
      'enum',
      'struct',
      'trait',
      'impl',
      'fn',
      'func',
      'fun',
      'module',
      'namespace',
      'protocol',
      'proc',
      'procedure',
      'extension',
      'record',
      'object',
      'sub',
      'macro_rules!',
      'create',
      'or',
      'replace',
      'table',
      'view',
      'index',
      'p',
      'x',
      'Name',
      '_a',
      '$',
      '(',
      ')',
      '.',
      '!',
      ' ',
      '  ',
      '\t',
      '\n',
      'é',
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('definition names', () => {
  it('are what the keywords as one list found', () => {
    fc.assert(
      fc.property(definitionText, (value) => {
        const oracle = [...value.matchAll(OLD_DEFINITION)].map((match) => match[1] as string);
        expect(definitionNames(value)).toEqual(oracle);
      }),
      { numRuns: 20_000 },
    );
  });

  it('agree on source text', () => {
    const code = [
      'defmodule App.Web do',
      '  defp run(x), do: x',
      '  defmacrop guard_it(a)',
      'func (s *Server) Serve() {}',
      'export function* gen() {}',
      'CREATE OR REPLACE VIEW v AS',
      'create  or  replace  view active_users as',
      'macro_rules! my_macro {',
      'class Foo(Base): pass',
    ].join('\n');
    const oracle = [...code.matchAll(OLD_DEFINITION)].map((match) => match[1] as string);
    expect(definitionNames(code)).toEqual(oracle);
    expect(oracle.length).toBeGreaterThan(5);
  });
});

describe('error lines', () => {
  it('are the lines the pattern with `\\w(?:Error|Exception)` found', () => {
    fc.assert(
      fc.property(errorText, (value) => {
        expect(findErrorLines(value)).toEqual(oracleFindErrorLines(value));
        for (const line of value.split(/\r\n|\r|\n/)) expect(isErrorLine(line)).toBe(oracleIsErrorLine(line));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agree on long words and runs', () => {
    const texts = [
      `${'x'.repeat(100_000)}Error`,
      `${'error'.repeat(20_000)}`,
      `${'a'.repeat(50_000)} TypeError: boom\n${'-'.repeat(50_000)}\nfailed`,
    ];
    for (const text of texts) expect(findErrorLines(text)).toEqual(oracleFindErrorLines(text));
  });
});

describe('artifacts of parts scanned again or remembered', () => {
  it('are the same at every call, short parts and long ones', () => {
    const output = (repeat: number) =>
      `${'ok src/a.ts\n'.repeat(repeat)}TypeError: boom at /srv/app/main.py\nsee https://example.com/x`;
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'fix src/b.ts, error: it failed' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', id: 'c1', name: 'Read', arguments: '{"file_path":"/srv/app/main.py"}' }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: output(2) }] }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: output(200) }] }],
      },
    ];
    const first = extractArtifacts(messages);
    const again = extractArtifacts(messages);
    expect(again).toEqual(first);
    expect([...first.errorLines]).toEqual([
      'fix src/b.ts, error: it failed',
      'TypeError: boom at /srv/app/main.py',
    ]);
    const result = messages[3]?.parts[0] as ToolResultPart;
    expect(resultErrorLines(result)).toEqual(resultErrorLines(result));
    expect(resultErrorLines(result)).toEqual(['TypeError: boom at /srv/app/main.py']);
  });
});
