import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { verifyResponsesInput } from '../../../src/codecs/openai-responses/index.js';
import { decodeDocument, getCodec } from '../../../src/codecs/registry.js';
import { FORMAT_NAMES, type FormatName } from '../../../src/model/format.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { fixtureFiles } from '../../support/fixtures.js';

function pairs(transcript: Transcript): string[] {
  return transcript.messages.flatMap((message) =>
    message.parts.flatMap((part) =>
      part.type === 'tool-call'
        ? [`call ${part.id}`]
        : part.type === 'tool-result'
          ? [`result ${part.callId}`]
          : [],
    ),
  );
}

function violations(transcript: Transcript): Set<string> {
  return new Set(verifyTranscript(transcript).map((violation) => violation.code));
}

/** Tool pairs and validity survive `transcript` → `to` → decoded again. */
function roundTrip(transcript: Transcript, to: FormatName): Transcript {
  const codec = getCodec(to);
  return codec.decode(codec.encode(transcript)).value;
}

const OURS = [...fixtureFiles('openai-responses'), ...fixtureFiles('codex')];
const TARGETS = FORMAT_NAMES.filter((format) => format !== 'sharegpt');

describe('Responses and Codex conversations in every other format', () => {
  for (const file of OURS) {
    const [source] = documentTranscripts(decodeDocument(readCorpusFile(file)));
    if (source === undefined) continue;
    it.each(TARGETS)(`${shortName(file)} → %s keeps its tool calls paired`, (to) => {
      const back = roundTrip(source, to);
      const before = violations(source);
      for (const code of violations(back)) {
        // The AI SDK format drops other formats' opaque parts: a turn of server-side items only is left empty.
        if (to === 'ai-sdk' && code === 'empty-message') continue;
        expect(before.has(code), `${code} appeared`).toBe(true);
      }
      if (before.size === 0) expect(pairs(back)).toEqual(pairs(source));
    });
  }
});

const FOREIGN = [
  ...corpusFiles('anthropic').slice(0, 2),
  ...corpusFiles('claude-code').slice(0, 3),
  ...corpusFiles('openai').filter((file) =>
    /function_calling_simple|G1_answer__10_|reason_tool_use/.test(file),
  ),
];

describe('other formats encoded as a Responses request', () => {
  it.each(FOREIGN.map((file) => [shortName(file), file]))('%s becomes a valid item list', (_name, file) => {
    for (const source of documentTranscripts(decodeDocument(readCorpusFile(file)))) {
      const wire = getCodec('openai-responses').encode(source) as { input: unknown[] };
      if (violations(source).size === 0) expect(verifyResponsesInput(wire.input)).toEqual([]);
      const back = getCodec('openai-responses').decode(wire).value;
      expect(pairs(back)).toEqual(pairs(source));
    }
  });
});
