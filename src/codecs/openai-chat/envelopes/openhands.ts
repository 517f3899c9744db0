import type { JsonObject } from '../../../model/json.js';
import type { Transcript } from '../../../model/transcript.js';
import type { DecodeResult } from '../../codec.js';
import { asJson, type WireObject } from '../../wire-object.js';
import { decodedTranscript, metaObject } from '../meta.js';
import { decodeEvents } from '../openhands/decode-events.js';
import { encodeEvents } from '../openhands/encode-events.js';

/** Decodes an OpenHands replay trajectory (a bare event array). */
export function decodeEventArray(wire: readonly unknown[]): DecodeResult<Transcript> {
  const events = decodeEvents(wire, []);
  return {
    value: decodedTranscript(wire, events.messages, {
      envelope: 'openhands-events',
      skipped: events.skipped,
    }),
    issues: events.issues,
  };
}

/** Decodes an OpenHands evaluation output line `{instance_id, history: [events], …}`. */
export function decodeEvalOutput(wire: WireObject): DecodeResult<Transcript> {
  const events = decodeEvents(wire['history'] as unknown[], ['history']);
  const rest = asJson({ ...wire, history: [] });
  return {
    value: decodedTranscript(wire, events.messages, {
      envelope: 'openhands-output',
      rest,
      skipped: events.skipped,
    }),
    issues: events.issues,
  };
}

/** The inverse of both decoders. */
export function encodeOpenHands(transcript: Transcript, meta: JsonObject): unknown {
  const skipped = meta['skipped'];
  const events = encodeEvents(transcript.messages, Array.isArray(skipped) ? skipped : []);
  if (meta['envelope'] === 'openhands-events') return events;
  return { ...metaObject(meta, 'rest'), history: events };
}
