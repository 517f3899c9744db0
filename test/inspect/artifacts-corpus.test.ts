import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import {
  ARTIFACT_KINDS,
  type Artifacts,
  artifactCoverage,
  extractArtifacts,
  searchableText,
} from '../../src/inspect/artifacts.js';
import type { Transcript } from '../../src/model/transcript.js';
import {
  CORPUS_DIR,
  type CorpusDir,
  corpusFiles,
  FULL_CORPUS,
  readCorpusFile,
  shortName,
} from '../support/corpus.js';

const DIRS: readonly CorpusDir[] = ['anthropic', 'claude-code', 'openai', 'sharegpt'];
const totals = Object.fromEntries(ARTIFACT_KINDS.map((kind) => [kind, 0])) as Record<keyof Artifacts, number>;

function transcriptsOf(dir: CorpusDir, name: string): Transcript[] {
  return documentTranscripts(decodeDocument(readCorpusFile(join(CORPUS_DIR, dir, name))));
}

describe('artifact extraction on the corpus', () => {
  for (const dir of DIRS) {
    for (const file of corpusFiles(dir)) {
      it(`extracts only strings present in ${dir}/${shortName(file)}`, () => {
        for (const transcript of documentTranscripts(decodeDocument(readCorpusFile(file)))) {
          const artifacts = extractArtifacts(transcript.messages);
          const coverage = artifactCoverage(artifacts, searchableText(transcript.messages));
          expect(coverage.ratio, JSON.stringify(coverage.byKind)).toBe(1);
          for (const kind of ARTIFACT_KINDS) totals[kind] += artifacts[kind].size;
        }
      });
    }
  }

  it('finds what a reader would expect in a Claude Code session', () => {
    const [session] = transcriptsOf('claude-code', 'marot__spotter__tool_heavy.jsonl');
    const artifacts = extractArtifacts(session?.messages ?? []);
    expect(artifacts.commands).toContain('mix phx.server');
    expect(artifacts.paths).toContain('/home/marco/projects/spotter/assets/js/app.js');
    expect(artifacts.urls).toContain('https://github.com/xtermjs/xterm.js/issues/1343');
    for (const tool of ['Bash', 'WebSearch', 'Glob', 'Read', 'WebFetch'])
      expect(artifacts.toolNames).toContain(tool);
    expect([...artifacts.paths]).not.toContain('@xterm/xterm');
  });

  it.skipIf(!FULL_CORPUS)('finds paths, commands and the traceback of an SWE-agent run', () => {
    const [run] = transcriptsOf(
      'openai',
      'SWE-agent__SWE-agent__replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source__marshmallow-code__marshmallow-1867.traj',
    );
    const artifacts = extractArtifacts(run?.messages ?? []);
    expect(artifacts.paths).toContain('src/marshmallow/fields.py');
    expect(artifacts.paths).toContain('/testbed/reproduce.py');
    expect(artifacts.commands).toContain('python reproduce.py');
    expect(artifacts.commands).toContain('pip install -e .[dev]');
  });

  it.skipIf(!FULL_CORPUS)('finds tool errors in tau-bench and ToolBench', () => {
    const tau = transcriptsOf('openai', 'sierra-research__tau-bench__gpt-4o-airline.json');
    const errors = tau.flatMap((transcript) => [...extractArtifacts(transcript.messages).errorLines]);
    expect(errors).toContain('Error: gift card balance is not enough');
    const toolbench = transcriptsOf(
      'openai',
      'OpenBMB__ToolBench__G2_answer__52_ChatGPT_DFS_woFilter_w2.json',
    );
    const toolbenchErrors = toolbench.flatMap((transcript) => [
      ...extractArtifacts(transcript.messages).errorLines,
    ]);
    expect(toolbenchErrors.some((line) => line.includes('Exceeded 30 redirects'))).toBe(true);
  });

  afterAll(() => {
    console.log(
      `artifacts extracted from the whole corpus: ${ARTIFACT_KINDS.map((kind) => `${kind} ${totals[kind]}`).join(', ')}`,
    );
  });
});
