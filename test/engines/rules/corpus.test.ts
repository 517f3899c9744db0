import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../../src/codecs/registry.js';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import { restoreTranscript } from '../../../src/engines/rules/restore-transcript.js';
import { ARTIFACT_KINDS, type ArtifactKind, extractArtifacts } from '../../../src/inspect/artifacts.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { createRoughCounter } from '../../../src/tokens/rough-counter.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';
import { gainedViolations } from '../../transforms/support.js';
import { compactOrBest } from '../support.js';
import { lostArtifacts } from './support.js';

const DIRS: readonly CorpusDir[] = ['anthropic', 'claude-code', 'openai', 'sharegpt'];
const counter = createRoughCounter();
const figures = Object.fromEntries(ARTIFACT_KINDS.map((kind) => [kind, { atRisk: 0, lost: 0 }])) as Record<
  ArtifactKind,
  { atRisk: number; lost: number }
>;
const missing: string[] = [];
let compacted = 0;

/** The evaluation's setting: a window half the transcript's size, compaction forced. */
function contextLengthOf(transcript: Transcript): number {
  return Math.max(8_000, Math.floor(counter.countTranscript(transcript) / 2));
}

describe('rules engine on the whole corpus', () => {
  afterAll(() => {
    const line = ARTIFACT_KINDS.map(
      (kind) => `${kind} ${figures[kind].atRisk - figures[kind].lost}/${figures[kind].atRisk}`,
    );
    console.log(`rules preservation over ${compacted} compacted transcripts: ${line.join(', ')}`);
  });

  for (const dir of DIRS) {
    for (const path of corpusFiles(dir)) {
      it(`${dir}/${shortName(path)}: keeps every path, URL, tool name and error line, stays valid, restores exactly`, async () => {
        const text = readCorpusFile(path);
        const document = decodeDocument(text, { fileName: path });
        const outputs: Transcript[] = [];
        for (const transcript of documentTranscripts(document)) {
          const contextLength = contextLengthOf(transcript);
          const {
            transcript: output,
            report,
            overflow,
          } = await compactOrBest(() => compactWithRules(transcript, { contextLength }));
          if (!overflow) expect(counter.countTranscript(output)).toBeLessThanOrEqual(contextLength);
          outputs.push(output);
          if (report.madeProgress) compacted++;
          expect(gainedViolations(transcript.messages, output.messages)).toEqual([]);
          const changed = transcript.messages.filter((message) => !output.messages.includes(message));
          const atRisk = extractArtifacts(changed);
          const lost = lostArtifacts(transcript, output);
          for (const kind of ARTIFACT_KINDS) {
            figures[kind].atRisk += atRisk[kind].size;
            figures[kind].lost += lost[kind].length;
            missing.push(...lost[kind].map((artifact) => `${kind}: ${artifact}`));
          }
          expect(lost.paths).toEqual([]);
          expect(lost.urls).toEqual([]);
          expect(lost.toolNames).toEqual([]);
          expect(lost.errorLines).toEqual([]);
          expect(lost.commands).toEqual([]);
          expect(restoreTranscript(output, transcript).transcript).toBe(transcript);
        }
        // Written in its own format and read back, the output restores to the original's content.
        let index = 0;
        const entries = document.entries.map((entry) =>
          entry.kind === 'transcript' ? { ...entry, transcript: outputs[index++] as Transcript } : entry,
        );
        const reread = documentTranscripts(
          decodeDocument(encodeDocument({ ...document, entries }), { fileName: path }),
        );
        const originals = documentTranscripts(document);
        reread.forEach((output, at) => {
          const original = originals[at] as Transcript;
          const back = restoreTranscript(output, original, { stripCompactedMeta: true });
          expect(back.unresolved).toEqual([]);
          expect(back.transcript.messages.map((message) => [message.role, message.parts])).toEqual(
            original.messages.map((message) => [message.role, message.parts]),
          );
        });
      });
    }
  }
});
