import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definedNames, definitionNames, identifierChanges } from '../../src/inspect/code-identifiers.js';

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
