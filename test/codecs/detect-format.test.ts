import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../src/codecs/convert/convert-transcript.js';
import { decodeDocument, getCodec } from '../../src/codecs/registry.js';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import { transcriptArbitrary } from './openai-chat/transcript-arbitrary.js';

/** Formats whose JSONL files hold one transcript per line. */
const LINE_FORMATS = FORMAT_NAMES.filter((format) => getCodec(format).fileLayout === 'entries');

/** JSON objects no codec takes for a transcript: settings, metadata, stray records. */
const unrecognised = fc
  .dictionary(
    fc.constantFrom('theme', 'id', 'run', 'score', 'meta', 'foo', 'fontSize', 'tags'),
    fc.jsonValue({ maxDepth: 2 }),
    { minKeys: 1, maxKeys: 4 },
  )
  .filter((value) => FORMAT_NAMES.every((format) => getCodec(format).detect(value) === 0));

const transcripts = fc.array(
  transcriptArbitrary({ signedReasoning: true, errorFlags: true, groupedResults: true }).filter(
    (transcript) => transcript.messages.some((message) => message.role !== 'system'),
  ),
  { minLength: 2, maxLength: 6 },
);

describe('format detection of a JSONL file', () => {
  it('is not thrown off by a minority of lines no format recognises, which decoding reports by line', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LINE_FORMATS),
        transcripts,
        fc.array(fc.tuple(unrecognised, fc.nat()), { maxLength: 6 }),
        (format, list, strays) => {
          const lines = list.map((transcript) => JSON.stringify(convertTranscript(transcript, format).wire));
          const clean = decodeDocument(lines.join('\n'));
          const kept = strays.slice(0, Math.floor(lines.length / 2) + (lines.length % 2));
          const mixed = [...lines];
          for (const [value, at] of kept) mixed.splice(at % (mixed.length + 1), 0, JSON.stringify(value));
          const strayLines = mixed.flatMap((line, index) => (lines.includes(line) ? [] : [index + 1]));
          const document = decodeDocument(mixed.join('\n'));
          expect(document.format).toBe(clean.format);
          for (const line of strayLines) {
            expect(document.issues.some((issue) => issue.line === line && issue.severity === 'error')).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('still refuses a file mostly made of lines no format recognises', () => {
    const transcript = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });
    const stray = JSON.stringify({ theme: 'dark' });
    const caught = (() => {
      try {
        decodeDocument([stray, transcript, stray].join('\n'));
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(isCondenseError(caught) && caught.code).toBe('UNKNOWN_FORMAT');
    expect(decodeDocument([transcript, stray, transcript].join('\n')).format).toBe('openai');
  });
});
