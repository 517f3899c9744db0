import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeRecords, encodeClaudeCodeRecords } from '../../../src/codecs/claude-code/index.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { said } from './helpers.js';
import { transcriptArb } from './transcript-arbitrary.js';

describe('claude-code round trip of generated transcripts (property)', () => {
  it('decodes what it encodes: same roles and parts, one chain, every call answered', () => {
    fc.assert(
      fc.property(
        transcriptArb({ images: true, signatures: true, errors: true, groupResults: true }),
        (transcript) => {
          const records = encodeClaudeCodeRecords(transcript);
          const back = decodeClaudeCodeRecords(records);
          expect(back.issues).toEqual([]);
          expect(back.value.messages.map(said)).toEqual(transcript.messages.map(said));
          expect(
            verifyTranscript(back.value).filter((violation) => violation.code !== 'empty-message'),
          ).toEqual([]);
          expect(encodeClaudeCodeRecords(transcript)).toEqual(records);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes separate tool messages as separate user records', () => {
    fc.assert(
      fc.property(transcriptArb({ groupResults: false }), (transcript) => {
        const back = decodeClaudeCodeRecords(encodeClaudeCodeRecords(transcript)).value;
        expect(back.messages.map(said)).toEqual(transcript.messages.map(said));
      }),
      { numRuns: 100 },
    );
  });
});
