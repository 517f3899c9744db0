import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import type { Message } from '../../../src/model/message.js';
import {
  collectFacts,
  parenthesized,
  withoutTrailingPunctuation,
} from '../../../src/summarizer/extractive/collect-facts.js';
import { assistantMessage, toolCall, toolResult, userMessage } from '../../../src/testing.js';
import { corpusFiles, readCorpusFile } from '../../support/corpus.js';
import { messages as anyMessages } from '../generators.js';
import { collectFacts as referenceCollectFacts } from './collect-facts-reference.js';
import { runMessages } from './fact-generators.js';

// The regexes the scans replace: the oracles, fast on short strings only.
const CURRENT_DIRECTORY = /\(Current directory: ([^)\n]+)\)/;
const OPEN_FILE = /\(Open file: ([^)\n]+)\)/;
const TRAILING_PUNCTUATION = /[.,;:]+$/;

function textOf(pieces: readonly string[], maxLength = 20) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

function stateOf(output: string): readonly string[] {
  const call = toolCall('bash', { command: 'ls' }, 'c1');
  return collectFacts([userMessage('go'), assistantMessage('ok', call), toolResult(call, output)]).stateLines;
}

describe('collectFacts: state lines of tool output', () => {
  it('reads the working directory and open file the regexes read', () => {
    const text = textOf(['(Current directory: ', '(Open file: ', '(', ')', '\n', '\r', 'a', ' ', ':']);
    fc.assert(
      fc.property(text, (value) => {
        expect(parenthesized(value, '(Current directory: ')).toBe(CURRENT_DIRECTORY.exec(value)?.[1]);
        expect(parenthesized(value, '(Open file: ')).toBe(OPEN_FILE.exec(value)?.[1]);
      }),
      { numRuns: 10_000 },
    );
  });

  it('drops trailing punctuation as the regex did', () => {
    const text = textOf(['.', ',', ';', ':', 'a', ' ', '\n', '。']);
    fc.assert(
      fc.property(text, (value) => {
        expect(withoutTrailingPunctuation(value)).toBe(value.replace(TRAILING_PUNCTUATION, ''));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads hostile tool output in linear time: unclosed openings, long runs of punctuation', () => {
    // The regexes took quadratic time: 64 KB, 0.2 s for the openings, 3 to 4 s for the punctuation.
    const n = 1_000_000;
    expect(
      stateOf(`${'(Current directory: '.repeat(n / 20)}\n(Open file: ${'(Open file: '.repeat(n / 12)}`),
    ).toEqual([]);
    expect(stateOf(`(Current directory: /r${','.repeat(n)}x.,)`)).toEqual([
      `Working directory: /r${','.repeat(n)}x`,
    ]);
    expect(stateOf(`running in background with ID: 7${';'.repeat(n)}x;`)).toEqual([
      `Background job: 7${';'.repeat(n)}x`,
    ]);
    expect(stateOf('(Open file: /repo/a.py)\n(Current directory: /repo)\nbash-$')).toEqual([
      'Working directory: /repo',
      'Open file: /repo/a.py',
    ]);
  });
});

describe('collectFacts against the version before issue 15 second round', () => {
  const same = (messages: readonly Message[]) => {
    const facts = collectFacts(messages);
    const reference = referenceCollectFacts(messages);
    expect(facts).toEqual(reference);
    expect(JSON.stringify(facts)).toBe(JSON.stringify(reference));
  };

  it('gathers the same facts from generated runs', () => {
    fc.assert(fc.property(runMessages, same), { numRuns: 3000 });
    fc.assert(fc.property(anyMessages, same), { numRuns: 2000 });
  });

  it('gathers the same facts from every corpus transcript and its middle', () => {
    for (const dir of ['anthropic', 'claude-code', 'openai', 'sharegpt'] as const) {
      for (const file of corpusFiles(dir)) {
        for (const transcript of documentTranscripts(decodeDocument(readCorpusFile(file)))) {
          same(transcript.messages);
          same(transcript.messages.slice(1, -4));
        }
      }
    }
  });
});
