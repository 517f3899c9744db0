import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import { stripOrigins } from '../../../src/model/origins.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { anthropicWireProblems } from './wire-oracle.js';

describe('decoded anthropic corpus transcripts against provider rules', () => {
  for (const file of corpusFiles('anthropic')) {
    it(`keeps ${shortName(file)} valid for Anthropic with every tool result in a tool message`, () => {
      const text = readCorpusFile(file);
      expect(anthropicWireProblems(JSON.parse(text))).toEqual([]);
      const [transcript] = documentTranscripts(decodeDocument(text, { format: 'anthropic' }));
      if (transcript === undefined) throw new Error('no transcript');
      expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
      for (const message of transcript.messages) {
        if (message.role !== 'tool')
          expect(message.parts.some((part) => part.type === 'tool-result')).toBe(false);
      }
      expect(anthropicWireProblems(anthropicCodec.encode(stripOrigins(transcript)))).toEqual([]);
    });
  }
});
