import type { JsonObject, JsonValue } from '../../../model/json.js';
import type { Transcript } from '../../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../../codec.js';
import { asJson, type WireObject } from '../../wire-object.js';
import { decodeChatMessages, encodeChatMessages } from '../chat-messages.js';
import { decodedTranscript, metaObject } from '../meta.js';

/**
 * Decodes a ToolBench answer file. `answer_generation.train_messages` holds cumulative snapshots of one
 * conversation; the transcript is the last one. The earlier snapshots, the search tree and every other field
 * are kept verbatim. A file without snapshots (`valid_data: false`) is an empty transcript with a warning.
 */
export function decodeToolbench(wire: WireObject): DecodeResult<Transcript> {
  const generation = wire['answer_generation'] as WireObject;
  const snapshots = generation['train_messages'];
  const last: unknown = Array.isArray(snapshots) ? snapshots[snapshots.length - 1] : undefined;
  if (!Array.isArray(snapshots) || !Array.isArray(last)) {
    const issues: DecodeIssue[] = [
      {
        code: 'invalid-shape',
        severity: 'warning',
        message:
          'this ToolBench answer has no train_messages snapshot (valid_data is false), so it decodes to an empty transcript; the search tree is kept as is',
        path: ['answer_generation', 'train_messages'],
      },
    ];
    return { value: decodedTranscript(wire, [], { envelope: 'toolbench', rest: asJson(wire) }), issues };
  }
  const path = ['answer_generation', 'train_messages', snapshots.length - 1];
  const chat = decodeChatMessages(last, path);
  const rest = asJson({
    ...wire,
    answer_generation: { ...generation, train_messages: snapshots.slice(0, -1) },
  });
  return {
    value: decodedTranscript(wire, chat.messages, { envelope: 'toolbench', rest, last: true }),
    issues: chat.issues,
  };
}

/** The inverse of {@link decodeToolbench}: the messages become the last snapshot again. */
export function encodeToolbench(transcript: Transcript, meta: JsonObject): unknown {
  const rest = metaObject(meta, 'rest') ?? {};
  if (meta['last'] !== true && transcript.messages.length === 0) return rest;
  const generation = metaObject(rest, 'answer_generation') ?? {};
  const earlier = generation['train_messages'];
  const snapshots: JsonValue[] = Array.isArray(earlier) ? [...earlier] : [];
  snapshots.push(asJson(encodeChatMessages(transcript.messages, false)));
  return { ...rest, answer_generation: { ...generation, train_messages: snapshots } };
}
