import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { type Violation, verifyTranscript } from '../../../src/model/verify.js';
import { corpusFiles, readCorpusFile, shortName } from '../../support/corpus.js';

/** Call ids that some tool call of the transcript reuses (real data: replayed demos, tau-bench reruns). */
function reusedCallIds(transcript: Transcript): Set<string> {
  const seen = new Set<string>();
  const reused = new Set<string>();
  for (const message of transcript.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      if (seen.has(part.id)) reused.add(part.id);
      seen.add(part.id);
    }
  }
  return reused;
}

/** True when no tool message follows `index`: the run stopped before the call was answered. */
function cutAfter(transcript: Transcript, index: number): boolean {
  return transcript.messages.slice(index + 1).every((message) => message.role !== 'tool');
}

function unexplained(transcript: Transcript, violations: readonly Violation[], text: string): Violation[] {
  const reused = reusedCallIds(transcript);
  return violations.filter((violation) => {
    const id = violation.callId ?? '';
    switch (violation.code) {
      case 'missing-result':
        return !cutAfter(transcript, violation.index);
      case 'duplicate-call-id':
      case 'duplicate-result':
      case 'result-not-adjacent':
        return !(reused.has(id) && text.split(`"${id}"`).length > 2);
      default:
        return true;
    }
  });
}

describe('decoded openai corpus transcripts against provider rules', () => {
  for (const file of corpusFiles('openai')) {
    it(`reports only the rule breaks present in the data of ${shortName(file)}`, () => {
      const text = readCorpusFile(file);
      for (const transcript of documentTranscripts(decodeDocument(text, { format: 'openai' }))) {
        const violations = verifyTranscript(transcript, { provider: 'openai' });
        expect(unexplained(transcript, violations, text)).toEqual([]);
      }
    });
  }

  it('finds every cut run: a final tool call without result is reported, not hidden', () => {
    const [toolbench] = corpusFiles('openai').filter((file) => file.includes('G1_answer__10_'));
    if (toolbench === undefined) return;
    const [transcript] = documentTranscripts(decodeDocument(readCorpusFile(toolbench), { format: 'openai' }));
    const violations = verifyTranscript(transcript as Transcript, { provider: 'openai' });
    const last = (transcript as Transcript).messages.length - 1;
    expect(violations).toEqual([expect.objectContaining({ code: 'missing-result', index: last })]);
  });

  it('passes agent runs whose data is complete without a single violation', () => {
    const clean = corpusFiles('openai').filter(
      (file) =>
        file.includes('function_calling_simple') ||
        file.includes('basic_gui_mode') ||
        file.includes('resolver_mock') ||
        file.includes('ctf-'),
    );
    expect(clean.length).toBeGreaterThan(0);
    for (const file of clean) {
      for (const transcript of documentTranscripts(
        decodeDocument(readCorpusFile(file), { format: 'openai' }),
      )) {
        expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
      }
    }
  });
});
