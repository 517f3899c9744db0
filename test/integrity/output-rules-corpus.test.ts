import { describe, expect, it } from 'vitest';
import { introducedProblems } from '../../src/codecs/convert/rule-regressions.js';
import { documentTranscripts } from '../../src/codecs/document.js';
import { wireProblems } from '../../src/codecs/provider-rules/index.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { createEngine } from '../../src/engines/registry.js';
import { exportSession } from '../../src/session/export-session.js';
import { loadSession } from '../../src/session/load-session.js';
import { compactOrBest } from '../engines/support.js';
import { corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { ENGINES } from './check-session.js';

describe('provider rules on every output path', () => {
  it('exports every real session as provider-valid OpenAI and Anthropic lines', () => {
    const broken: string[] = [];
    for (const file of corpusFiles('claude-code')) {
      const session = loadSession(Buffer.from(readCorpusFile(file)));
      if (session.transcript.messages.length === 0) continue;
      for (const to of ['openai', 'anthropic'] as const) {
        const exported = exportSession(session, { to });
        const problems = wireProblems(to, exported.line, { trailingCalls: false });
        expect(exported.problems).toEqual(problems);
        for (const problem of problems)
          broken.push(`${shortName(file)} → ${to}: ${problem.path} ${problem.message}`);
      }
    }
    expect(broken.slice(0, 10)).toEqual([]);
  });

  // Sampled: every anthropic file and one file of each openai dataset family (the engines are swept on the whole
  // corpus elsewhere; here only what their output sends is checked).
  const SAMPLE = [
    ...corpusFiles('anthropic'),
    ...corpusFiles('openai').filter((file) =>
      /basic_gui_mode|resolver_mock|G2_answer__102_|function_calling_simple|tau-bench|reason_tool_use/.test(
        file,
      ),
    ),
  ];
  for (const file of SAMPLE) {
    it(`compacting ${shortName(file)} with every engine brings in no provider-rule break`, async () => {
      const document = decodeDocument(readCorpusFile(file));
      const found: string[] = [];
      for (const transcript of documentTranscripts(document).slice(0, 20)) {
        if (transcript.messages.length === 0) continue;
        for (const engine of ENGINES) {
          const result = await compactOrBest(() =>
            createEngine(engine, { contextLength: 8_000 }).compress(transcript, { force: true }),
          );
          for (const problem of introducedProblems(document.format, transcript, result.transcript))
            found.push(`${engine}: ${problem.path} ${problem.message}`);
        }
      }
      expect(found.slice(0, 10)).toEqual([]);
    });
  }
});
