import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER, identifierTokens } from '../../src/inspect/code-identifiers.js';

// The pattern IDENTIFIER replaced: the oracle. Each of its repeated groups overflowed V8's regex stack
// (RangeError) on an edit with millions of `.Name`, `_part` or humps, which cost the summary of the step.
const OLD_IDENTIFIER =
  /@[a-z_][a-z0-9_]*|(?<=[\s([,{]):[a-z_][a-z0-9_]*[?!]?|\b[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+[?!]?|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g;

function matches(regex: RegExp, text: string): string[] {
  return [...text.matchAll(regex)].map((match) => `${match.index}:${match[0]}`);
}

describe('identifier tokens', () => {
  it('are the matches of the old pattern', () => {
    const text = fc
      .array(
        fc.constantFrom(
          'A',
          'B',
          'a',
          'b',
          '1',
          '.',
          '_',
          '?',
          '!',
          ' ',
          '@',
          ':',
          '(',
          'x.Y',
          'Ab',
          'é',
          '-',
          '\n',
        ),
        { maxLength: 24 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(matches(IDENTIFIER, value)).toEqual(matches(OLD_IDENTIFIER, value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('are read from an edit with millions of segments or humps', () => {
    const dotted = `A${'.B'.repeat(6_000_000)}`;
    expect(identifierTokens(`x ${dotted} y`)).toEqual([dotted]);
    expect(identifierTokens(`${dotted}_`)).toEqual([dotted.slice(0, -2)]);
    const snake = `a${'_b'.repeat(6_000_000)}`;
    expect(identifierTokens(snake)).toEqual([snake]);
    const camel = `a${'B'.repeat(12_000_000)}`;
    expect(identifierTokens(camel)).toEqual([camel]);
    const pascal = `Ab${'Cd'.repeat(6_000_000)}`;
    expect(identifierTokens(pascal)).toEqual([pascal]);
    expect(identifierTokens(`${pascal}_`)).toEqual([]);
  });
});
