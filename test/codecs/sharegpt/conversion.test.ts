import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import { decodeShareGpt, encodeShareGpt } from '../../../src/codecs/sharegpt/index.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { callPairs } from './pairs.js';

function transcriptsOf(dir: CorpusDir, file: string) {
  return documentTranscripts(
    decodeDocument(readCorpusFile(file), {
      format: dir === 'claude-code' ? 'claude-code' : dir === 'sharegpt' ? 'sharegpt' : dir,
      fileName: file,
    }),
  );
}

describe('sharegpt glaive function_call / observation turns', () => {
  const glaive = corpusFiles('sharegpt').filter((file) => file.includes('glaive'));
  it('pairs every function_call with the observation after it', () => {
    for (const file of glaive) {
      let calls = 0;
      for (const transcript of transcriptsOf('sharegpt', file)) {
        expect(
          verifyTranscript(transcript).filter((violation) => violation.code !== 'empty-message'),
        ).toEqual([]);
        for (const pair of callPairs(transcript)) {
          calls++;
          expect(pair.result).toBeDefined();
          expect(JSON.parse(pair.arguments)).toBeTypeOf('object');
        }
      }
      // 211 in the whole file.
      const turns = (JSON.parse(readCorpusFile(file)) as { conversations: { from: string }[] }[]).flatMap(
        (entry) => entry.conversations.filter((turn) => turn.from === 'function_call'),
      );
      expect(calls).toBe(turns.length);
    }
  });
});

describe('conversion of other corpus formats to sharegpt', () => {
  for (const dir of ['openai', 'anthropic', 'claude-code'] as const) {
    for (const file of corpusFiles(dir)) {
      it(`keeps every call/result pair of ${dir}/${shortName(file)}`, () => {
        for (const transcript of transcriptsOf(dir, file)) {
          const entry = encodeShareGpt(transcript);
          const back = decodeShareGpt(JSON.parse(JSON.stringify(entry)));
          expect(back.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
          const expected = callPairs(transcript);
          const actual = callPairs(back.value);
          expect(actual.map((pair) => [pair.name, pair.arguments])).toEqual(
            expected.map((pair) => [pair.name, pair.arguments]),
          );
          expected.forEach((pair, index) => {
            if (pair.result !== undefined) expect(actual[index]?.result).toBe(pair.result);
          });
        }
      });
    }
  }
});

describe('sharegpt detection', () => {
  it('detects every corpus file of the sharegpt folder as sharegpt', () => {
    for (const file of corpusFiles('sharegpt'))
      expect(decodeDocument(readCorpusFile(file)).format).toBe('sharegpt');
  });
});
