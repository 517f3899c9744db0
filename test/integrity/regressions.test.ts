import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../src/codecs/convert/convert-transcript.js';
import { documentTranscripts } from '../../src/codecs/document.js';
import { wireProblems } from '../../src/codecs/provider-rules/index.js';
import { decodeDocument, getCodec } from '../../src/codecs/registry.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import { loadSession } from '../../src/session/load-session.js';
import { conversionFindings } from './check-conversion.js';
import { ENGINES, sessionFindings } from './check-session.js';
import { convertFixture } from './fixtures.js';
import { features } from './measures.js';

function only(text: string): Transcript {
  const [transcript] = documentTranscripts(decodeDocument(text));
  if (transcript === undefined) throw new Error('no transcript');
  return transcript;
}

const FIXTURES = [
  'claude-code-rewind.jsonl',
  'claude-code-tool-errors.jsonl',
  'swe-agent-function-calling.traj',
  'tau-bench-airline-run.json',
  'hermes-trajectories.jsonl',
];

describe('session integrity on real excerpts (bare clone)', () => {
  it.each(['claude-code-rewind.jsonl', 'claude-code-tool-errors.jsonl'])(
    '%s replays as every engine wrote it, restore byte-exact',
    async (name) => {
      expect(await sessionFindings(convertFixture(name), ENGINES)).toEqual([]);
    },
  );

  it('keeps the rewound branch out of the conversation after the rules engine rewrites the session', async () => {
    const text = convertFixture('claude-code-rewind.jsonl');
    const session = loadSession(Buffer.from(text));
    expect(session.deadBranches.records).toBeGreaterThanOrEqual(10);
    const transcript = only(text);
    expect(transcript.messages.map((message) => message.id)).toEqual(
      session.transcript.messages.map((message) => message.id),
    );
  });
});

describe('conversions of real excerpts (bare clone)', () => {
  it.each(FIXTURES)('%s converts to every format without an unreported loss', (name) => {
    for (const transcript of documentTranscripts(decodeDocument(convertFixture(name))))
      for (const to of FORMAT_NAMES) expect(conversionFindings(transcript, to), `→ ${to}`).toEqual([]);
  });

  it('carries failed Claude Code tool calls to OpenAI as failures, and says so', () => {
    const source = only(convertFixture('claude-code-tool-errors.jsonl'));
    const { wire, losses } = convertTranscript(source, 'openai');
    const marked = (wire as { messages: { role: string; content: string }[] }).messages.filter(
      (message) => message.role === 'tool' && message.content.startsWith('[tool error] '),
    );
    expect(marked).toHaveLength(6);
    expect(losses).toContainEqual(expect.objectContaining({ kind: 'tool-error-as-text', count: 6 }));
    const back = getCodec('openai').decode(wire).value;
    expect(features(back).errors).toBe(6);
  });

  it('writes a SWE-agent trajectory as {messages} with API keys only, and names what it left behind', () => {
    const { wire, losses, problems } = convertTranscript(
      only(convertFixture('swe-agent-function-calling.traj')),
      'openai',
    );
    expect(Object.keys(wire as object)).toEqual(['messages']);
    expect(problems).toEqual([]);
    const fields = losses.filter((loss) => loss.kind === 'source-field').map((loss) => loss.what);
    expect(fields).toEqual(
      expect.arrayContaining(['message.agent', 'message.message_type', 'message.thought', 'message.action']),
    );
  });

  it('gives tau-bench calls that reuse an id valid, unique Anthropic ids, results following their calls', () => {
    const source = only(convertFixture('tau-bench-airline-run.json'));
    const { wire, losses } = convertTranscript(source, 'anthropic');
    expect(wireProblems('anthropic', wire)).toEqual([]);
    expect(losses).toContainEqual(expect.objectContaining({ kind: 'tool-id-rewritten', count: 1 }));
    const fields = losses.filter((loss) => loss.kind === 'source-field').map((loss) => loss.what);
    expect(fields).toEqual(expect.arrayContaining(['task_id', 'reward', 'info', 'trial']));
  });

  it('keeps Hermes reasoning on its way to Anthropic and back to ShareGPT', () => {
    const text = convertFixture('hermes-trajectories.jsonl');
    for (const source of documentTranscripts(decodeDocument(text))) {
      const before = features(source).reasoning;
      expect(before).toBe(1);
      const { wire, losses } = convertTranscript(source, 'anthropic');
      expect(losses).toContainEqual(expect.objectContaining({ kind: 'reasoning-as-text', count: 1 }));
      const anthropic = getCodec('anthropic').decode(wire).value;
      const sharegpt = getCodec('sharegpt').decode(convertTranscript(anthropic, 'sharegpt').wire).value;
      expect(features(sharegpt).reasoning).toBe(before);
    }
  });
});
