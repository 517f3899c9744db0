import { jsonChunks, StreamedArray } from '../io/json-chunks.js';
import type { SessionFile } from './load-session-file.js';
import { plainMessageJson } from './render-replay.js';

/**
 * What `condense replay --json` writes for a session, with its messages as a {@link StreamedArray}: each is
 * turned into plain JSON (`plainMessageJson`) only when it is written. `JSON.stringify` of this object is the
 * `--json` document; {@link replayJsonChunks} writes the same bytes in pieces.
 */
export function replayJsonPayload(session: SessionFile): object {
  const messages = session.transcript.messages;
  return {
    session: {
      path: session.path,
      format: session.format,
      sessionId: session.sessionId,
      title: session.title ?? null,
      view: session.view,
      leaf: session.leaf ?? null,
      lastActivity: session.lastActivity ?? null,
      model: session.model ?? null,
      stats: session.stats,
    },
    messages: new StreamedArray(function* () {
      for (const message of messages) yield plainMessageJson(message);
    }),
    boundaries: session.boundaries,
    queuedPrompts: session.queuedPrompts,
    deadBranches: session.deadBranches,
    subagents: session.subagents.map((agent) => ({
      agentId: agent.agentId,
      path: agent.path,
      layout: agent.layout,
      kind: agent.kind,
      callId: agent.callId ?? null,
      description: agent.description ?? null,
      messages: agent.session.transcript.messages.length,
    })),
    titles: session.titles,
    issues: session.issues,
  };
}

/**
 * The `condense replay --json` document (two-space indentation, one newline at the end) in chunks of about
 * 64 K characters made as they are asked for, each message serialized on its own: the chunks joined are exactly
 * `JSON.stringify(replayJsonPayload(session), null, 2)` and a newline, never held whole.
 */
export function replayJsonChunks(session: SessionFile): Generator<string> {
  return jsonChunks(replayJsonPayload(session), { space: 2, end: '\n' });
}
