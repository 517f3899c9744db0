import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  definedNames,
  definitionNames,
  IDENTIFIER,
  identifierChanges,
  identifierTokens,
} from '../../src/inspect/code-identifiers.js';
import {
  referenceDefinedNames,
  referenceIdentifierChanges,
  referenceIdentifierTokens,
} from './code-identifiers-reference.js';

// The one regex the definition scan replaced (issue 15): `\([^)]*\)` searched on to the next `)` again for
// each keyword followed by `(`, quadratic in a run of them (414 ms at 80 KB, over a minute at 1 MB).
const DEFINITION =
  /\b(?:def|defp|defmacrop?|defmodule|defprotocol|defimpl|defstruct|defguardp?|defdelegate|function\*?|class|interface|type|enum|struct|trait|impl|fn|func|module|namespace|protocol|extension|record|object|fun|sub|proc|macro_rules!|create\s+(?:or\s+replace\s+)?(?:table|view|function|index|procedure))\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$.!?]*)/g;

const PIECES = [
  'def',
  'defp',
  'defmacrop',
  'fn',
  'func',
  'fun',
  'function',
  '*',
  'create',
  'or',
  'replace',
  'table',
  'macro_rules!',
  'c$',
  ' ',
  '\n',
  '\t',
  '\r',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '(',
  ')',
  'a',
  'Z',
  '_',
  '$',
  '.',
  '!',
  '?',
  '1',
  'é',
  '-',
];

describe('definition names', () => {
  it('are what the regex captured, in order, repeats included', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 40 })), (value) => {
        expect(definitionNames(value)).toEqual([...value.matchAll(DEFINITION)].map((match) => match[1]));
      }),
      { numRuns: 5000 },
    );
  });

  it('include receivers, SQL objects and names after a blank', () => {
    const source = [
      'func (s *Server) Serve(ctx context.Context) {}',
      'create or replace view active_users as select 1;',
      'defmodule MyApp.Repo do',
      'function* walk() {}',
      'class Cache:',
      'fn (unclosed',
    ].join('\n');
    expect(definedNames(source)).toEqual(['Serve', 'active_users', 'MyApp.Repo', 'walk', 'Cache']);
  });

  it('are read in linear time from runs of keywords followed by `(`', () => {
    expect(definedNames('c$fn\t(!'.repeat(150_000))).toEqual([]);
    expect(definedNames(`${'fn ('.repeat(250_000)})${' '.repeat(100_000)}!`)).toEqual([]);
    expect(definedNames(`${'fn ('.repeat(250_000)}) next`)).toEqual(['next']);
    expect(identifierChanges('', `${'func ('.repeat(200_000)}\ndef handle_call`).defined).toEqual([
      'handle_call',
    ]);
  });
});

// Pieces of source in the languages the scans know, and what breaks them: definitions, bindings, attributes,
// shell functions, exports, identifiers of every shape, lines short and long, blanks and odd characters.
const SOURCE_PIECES = [
  'def handle_call',
  'defmodule MyApp.Repo do',
  'function build(',
  'export const ',
  'export default class Widget',
  'const cacheSize = ',
  'let mut count: ',
  '@moduledoc',
  '  @spec ',
  'deploy() {',
  'function setup () {',
  'fn parse_args',
  'class HttpClient',
  'MyApp.Accounts.User',
  'user_account_id',
  'parseJsonBody',
  'HttpServerError',
  ' :ok',
  '(:error',
  'return true;',
  '}',
  'end',
  '// a comment line',
  'import { readFile } from "node:fs";',
  'x',
  '()',
  '{',
  '@',
  '_',
  '.',
  ' ',
  '\n',
  '\n\n',
  '\t',
  '\r',
  '\u00a0',
  '\u2028',
  'é',
  '\u{1F600}',
  '\uD800',
];

const source = fc
  .array(fc.constantFrom(...SOURCE_PIECES), { maxLength: 40 })
  .map((pieces) => pieces.join(''));

describe('identifier changes', () => {
  it('are what the scans over the whole texts found', () => {
    fc.assert(
      fc.property(fc.oneof(source, fc.string({ maxLength: 40 })), source, (before, after) => {
        expect(identifierChanges(before, after)).toEqual(referenceIdentifierChanges(before, after));
        expect(definedNames(after)).toEqual(referenceDefinedNames(after));
        expect(identifierTokens(after)).toEqual(referenceIdentifierTokens(after));
      }),
      { numRuns: 5000 },
    );
  });

  it('stop at 40 new names and 12 new lines as the whole lists cut did', () => {
    const names = Array.from(
      { length: 300 },
      (_, index) => `value_${index} = compute_${index}(input_${index})`,
    );
    const after = names.join('\n');
    for (const before of ['', names.slice(0, 50).join('\n'), names.slice(100, 140).join('\n')]) {
      expect(identifierChanges(before, after)).toEqual(referenceIdentifierChanges(before, after));
    }
  });

  it('leave the exported pattern where `matchAll` starts from the beginning', () => {
    identifierChanges('', Array.from({ length: 100 }, (_, index) => `name_${index}`).join(' '));
    expect(IDENTIFIER.lastIndex).toBe(0);
  });

  it('are read in linear time from a whole-file write of megabytes', () => {
    const after = 'const value_one = 1;\n'.repeat(200_000);
    const started = performance.now();
    expect(identifierChanges('', after)).toEqual({
      defined: ['value_one'],
      added: [],
      removed: [],
      lines: ['const value_one = 1;'],
    });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
