import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { withoutMeta } from './without-meta.js';

function calls(transcript: Transcript): unknown[] {
  return transcript.messages.flatMap((message) =>
    message.parts.flatMap((part) =>
      part.type === 'tool-call' ? [{ id: part.id, name: part.name, args: JSON.parse(part.arguments) }] : [],
    ),
  );
}

function results(transcript: Transcript): unknown[] {
  return transcript.messages.flatMap((message) =>
    message.parts.flatMap((part) =>
      part.type === 'tool-result' ? [{ callId: part.callId, content: withoutMeta(part.content) }] : [],
    ),
  );
}

describe('anthropic corpus encoded as OpenAI chat messages', () => {
  for (const file of corpusFiles('anthropic')) {
    it(`keeps every tool call of ${shortName(file)} paired with its result and valid for OpenAI`, () => {
      const [source] = documentTranscripts(decodeDocument(readCorpusFile(file), { format: 'anthropic' }));
      if (source === undefined) throw new Error('no transcript');
      const wire = openaiCodec.encode(source) as { messages: unknown[] };
      expect(Object.keys(wire)).toEqual(['messages']);
      const back = openaiCodec.decode(wire).value;
      expect(verifyTranscript(back, { provider: 'openai' })).toEqual([]);
      expect(calls(back)).toEqual(calls(source));
      expect(results(back)).toEqual(results(source));
      const reasoning = (t: Transcript) =>
        t.messages.flatMap((m) =>
          m.parts.filter((p) => p.type === 'reasoning').map((p) => (p.type === 'reasoning' ? p.text : '')),
        );
      expect(reasoning(back)).toEqual(reasoning(source));
    });
  }
});
