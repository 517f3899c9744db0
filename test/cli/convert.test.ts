import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, getCodec } from '../../src/codecs/registry.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';
import { corpusFiles, readCorpusFile } from '../support/corpus.js';

// One or two files of every corpus folder, chosen for their features (parallel tools, legacy calls, envelopes).
const SAMPLES = [
  ...corpusFiles('anthropic').slice(0, 1),
  ...corpusFiles('claude-code').filter((file) =>
    /ef958aa1-0e93-49f0-bb71-150f63befcd1\.jsonl|0d3a8e6f/.test(file),
  ),
  ...corpusFiles('openai').filter((file) =>
    /function_calling_simple|G1_answer__10_|basic_gui_mode|reason_tool_use/.test(file),
  ),
  ...corpusFiles('sharegpt'),
];

function pairCodes(transcript: Transcript): Set<string> {
  return new Set(verifyTranscript(transcript).map((violation) => violation.code));
}

describe('condense convert', () => {
  it.each(
    SAMPLES.flatMap((file) => FORMAT_NAMES.map((to) => [file.slice(file.lastIndexOf('/') + 1), to, file])),
  )('%s → %s keeps every tool call paired', async (_name, to, file) => {
    const directory = temporaryDirectory();
    try {
      const out = `${directory.path}/out`;
      const run = await runInProcess(['convert', file as string, '--to', to as string, '-o', out]);
      const count = documentTranscripts(decodeDocument(readCorpusFile(file as string))).length;
      if (getCodec(to as never).fileLayout === 'records' && count > 1) {
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/holds exactly one session/);
        return;
      }
      expect(run.code, run.stderr).toBe(0);
      const { readFileSync } = await import('node:fs');
      const converted = documentTranscripts(
        decodeDocument(readFileSync(out, 'utf8'), { format: to as never }),
      );
      const original = documentTranscripts(decodeDocument(readCorpusFile(file as string)));
      expect(converted.length).toBe(original.length);
      converted.forEach((transcript, index) => {
        const before = pairCodes(original[index] as Transcript);
        for (const code of pairCodes(transcript)) expect(before.has(code), `${code} appeared`).toBe(true);
        const calls = (t: Transcript) =>
          t.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-call')).length;
        if (to !== 'sharegpt' || before.size === 0)
          expect(calls(transcript)).toBe(calls(original[index] as Transcript));
      });
    } finally {
      directory.remove();
    }
  });

  it('refuses to overwrite its input', async () => {
    const run = await runInProcess([
      'convert',
      'examples/coding-agent-session.openai.json',
      '--to',
      'anthropic',
      '-o',
      'examples/coding-agent-session.openai.json',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refusing to overwrite/);
  });
});
