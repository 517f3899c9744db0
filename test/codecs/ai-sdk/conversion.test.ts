import { describe, expect, it } from 'vitest';
import { decodeAiSdk, encodeAiSdk } from '../../../src/codecs/ai-sdk/index.js';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument, detectFormat } from '../../../src/codecs/registry.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { callPairs } from '../sharegpt/pairs.js';
import { schemaFailures } from './schema.js';

/** Arguments compared as JSON values (the AI SDK holds tool input as an object, not as text). */
function normalizedPairs(transcript: Transcript) {
  return callPairs(transcript).map((pair) => {
    let args: unknown = pair.arguments;
    try {
      args = JSON.parse(pair.arguments);
    } catch {}
    return { name: pair.name, args, result: pair.result };
  });
}

describe('conversion of every corpus format to the AI SDK', () => {
  for (const dir of [
    'openai',
    'anthropic',
    'sharegpt',
    'claude-code',
  ] as const satisfies readonly CorpusDir[]) {
    for (const file of corpusFiles(dir)) {
      it(`validates against modelMessageSchema and keeps every pair: ${dir}/${shortName(file)}`, () => {
        const document = decodeDocument(readCorpusFile(file), { format: dir, fileName: file });
        for (const transcript of documentTranscripts(document)) {
          const wire = JSON.parse(JSON.stringify(encodeAiSdk(transcript)));
          expect(schemaFailures(wire)).toEqual([]);
          const distinctive = transcript.messages.some((message) =>
            message.parts.some((part) => part.type === 'tool-call' || part.type === 'reasoning'),
          );
          if (distinctive) expect(detectFormat([wire])).toBe('ai-sdk');
          const back = decodeAiSdk(wire);
          expect(back.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
          const expected = normalizedPairs(transcript);
          const actual = normalizedPairs(back.value);
          expect(actual.map((pair) => [pair.name, pair.args])).toEqual(
            expected.map((pair) => [pair.name, pair.args]),
          );
          expected.forEach((pair, index) => {
            if (pair.result !== undefined) expect(actual[index]?.result).toBe(pair.result);
          });
        }
      });
    }
  }
});
