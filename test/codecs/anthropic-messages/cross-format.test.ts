import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { wireProblems } from '../../../src/codecs/provider-rules/index.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { withoutMeta } from '../openai-chat/without-meta.js';
import { anthropicWireProblems } from './wire-oracle.js';

/**
 * Every call in order with the content of its result in the very next wire turn: ids are left out, since ids
 * Anthropic rejects (or one id reused across turns) are rewritten, calls and results alike.
 */
function pairs(transcript: Transcript): string[] {
  const out: string[] = [];
  transcript.messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      let answer = '(none)';
      for (const later of transcript.messages.slice(index + 1)) {
        if (later.role !== 'tool') break;
        const result = later.parts.find((item) => item.type === 'tool-result' && item.callId === part.id);
        if (result !== undefined && result.type === 'tool-result') {
          answer = JSON.stringify(withoutMeta(result.content));
          break;
        }
      }
      out.push(`${part.name} → ${answer}`);
    }
  });
  return out;
}

const PAIR_CODES = new Set([
  'missing-result',
  'duplicate-call-id',
  'duplicate-result',
  'result-not-adjacent',
]);

/** Rule breaks that come from one id reused by several calls, which the encoder resolves by rewriting ids. */
const REUSE_CODES = new Set(['duplicate-call-id', 'duplicate-result', 'result-not-adjacent']);

function codes(transcript: Transcript, provider: 'anthropic' | 'generic'): string[] {
  return verifyTranscript(transcript, { provider })
    .map((violation) => violation.code)
    .sort();
}

describe('openai corpus encoded as Anthropic requests', () => {
  for (const file of corpusFiles('openai')) {
    it(`keeps every tool call of ${shortName(file)} paired with its result`, () => {
      const document = decodeDocument(readCorpusFile(file), { format: 'openai' });
      for (const source of documentTranscripts(document)) {
        const wire = anthropicCodec.encode(source);
        const sourcePairs = codes(source, 'generic').filter((code) => PAIR_CODES.has(code));
        const problems = anthropicWireProblems(wire);
        const unanswered = problems.filter((problem) => problem.endsWith('unanswered'));
        expect(problems.filter((problem) => !problem.endsWith('unanswered'))).toEqual([]);
        expect(unanswered.length).toBe(sourcePairs.filter((code) => code === 'missing-result').length);
        const back = anthropicCodec.decode(wire).value;
        expect(pairs(back)).toEqual(pairs(source));
        expect(codes(back, 'anthropic')).toEqual(sourcePairs.filter((code) => !REUSE_CODES.has(code)));
        if (source.messages.length > 0)
          expect(wireProblems('anthropic', wire, { trailingCalls: false })).toEqual([]);
      }
    });
  }
});
