import { documentTranscripts, type TranscriptDocument } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../src/codecs/registry.js';
import { createEngine } from '../../src/engines/registry.js';
import { restoreTranscript } from '../../src/engines/rules/restore-transcript.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { loadSession } from '../../src/session/load-session.js';
import type { LoadedSession } from '../../src/session/session-types.js';
import { compactOrBest } from '../engines/support.js';
import { said } from './measures.js';

/** The built-in engines the session suite runs. */
export const ENGINES = ['compressor', 'rules'] as const;

const PAIR_CODES = new Set(['missing-result', 'duplicate-result', 'orphan-result', 'result-before-call']);

function prompts(transcript: Transcript): string[] {
  return transcript.messages.filter((message) => message.role === 'user').map(said);
}

function pairBreaks(transcript: Transcript): string[] {
  return verifyTranscript(transcript)
    .filter((violation) => PAIR_CODES.has(violation.code))
    .map((violation) => `${violation.code} ${violation.callId ?? ''}`);
}

/** JSONL text as condense writes it back: `\n` line ends, no blank lines, a final newline. */
function normalized(text: string): string {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const kept = lines.filter((line) => line.trim() !== '');
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/**
 * Compacts a session file with each engine (forced, on a small window so it has work to do), writes it, replays the
 * written file, and lists every broken promise: the replay is exactly the engine's output (same messages, same
 * order, nothing from a dead branch, no cycle or dangling link), tool pairs stay intact, the rules engine leaves
 * the person's prompts as they were, and restoring a rules output gives the original file byte for byte.
 */
export async function sessionFindings(
  text: string,
  engines: readonly (typeof ENGINES)[number][] = ENGINES,
): Promise<string[]> {
  const out: string[] = [];
  const document = decodeDocument(text, { format: 'claude-code' });
  const [transcript] = documentTranscripts(document);
  if (transcript === undefined || transcript.messages.length === 0) return out;
  const original = loadSession(Buffer.from(text));
  if (
    JSON.stringify(original.transcript.messages.map(said)) !== JSON.stringify(transcript.messages.map(said))
  )
    out.push('the codec and replay read different conversations');
  for (const engine of engines)
    for (const finding of await engineFindings(text, document, transcript, original, engine))
      out.push(`${engine}: ${finding}`);
  return out;
}

async function engineFindings(
  text: string,
  document: TranscriptDocument,
  transcript: Transcript,
  original: LoadedSession,
  engine: (typeof ENGINES)[number],
): Promise<string[]> {
  const out: string[] = [];
  // A session the window cannot hold still gets the engine's smallest result, which must be as sound.
  const result = await compactOrBest(() =>
    createEngine(engine, { contextLength: 8_000 }).compress(transcript, { force: true }),
  );
  const written = encodeDocument({
    ...document,
    entries: [{ kind: 'transcript', transcript: result.transcript }],
  });
  const replay = loadSession(Buffer.from(written));
  const want = result.transcript.messages.map(said);
  const got = replay.transcript.messages.map(said);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    let at = 0;
    while (at < want.length && want[at] === got[at]) at++;
    out.push(
      `replay of the output differs from the engine's output at message ${at} (${want.length} → ${got.length})`,
    );
  }
  const known = new Set(original.issues.map((issue) => issue.code));
  for (const issue of replay.issues)
    if (issue.severity === 'error' && !known.has(issue.code))
      out.push(`replay: ${issue.code}: ${issue.message}`);
  const before = new Set(pairBreaks(original.transcript));
  for (const broken of pairBreaks(replay.transcript))
    if (!before.has(broken)) out.push(`tool pair: ${broken}`);
  if (engine === 'rules') {
    if (JSON.stringify(prompts(replay.transcript)) !== JSON.stringify(prompts(original.transcript)))
      out.push("the rules engine changed the person's prompts");
    const compacted = documentTranscripts(
      decodeDocument(written, { format: 'claude-code' }),
    )[0] as Transcript;
    const restored = restoreTranscript(compacted, transcript, { stripCompactedMeta: true });
    const back = encodeDocument({
      ...document,
      entries: [{ kind: 'transcript', transcript: restored.transcript }],
    });
    if (back !== normalized(text)) out.push('restore is not byte-exact');
  }
  return out;
}
