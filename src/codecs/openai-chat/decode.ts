import type { Transcript } from '../../model/transcript.js';
import type { DecodeResult } from '../codec.js';
import { asJson, type WireObject } from '../wire-object.js';
import { envelopeKind } from './envelopes/envelope-kind.js';
import { decodeBareArray, decodeKeyed } from './envelopes/keyed.js';
import { decodeEvalOutput, decodeEventArray } from './envelopes/openhands.js';
import { decodeToolbench } from './envelopes/toolbench.js';
import { decodedTranscript } from './meta.js';

/**
 * Decodes one OpenAI-chat-style transcript in any envelope the codec knows (see `envelope-kind.ts`). Never
 * throws: a value that is no transcript decodes to an empty transcript with an error issue and is written back
 * unchanged.
 */
export function decodeOpenai(wire: unknown): DecodeResult<Transcript> {
  const kind = envelopeKind(wire);
  switch (kind) {
    case 'array':
      return decodeBareArray(wire as unknown[]);
    case 'openhands-events':
      return decodeEventArray(wire as unknown[]);
    case 'messages':
    case 'tau-bench':
    case 'swe-agent':
      return decodeKeyed(wire as WireObject, kind);
    case 'toolbench':
      return decodeToolbench(wire as WireObject);
    case 'openhands-output':
      return decodeEvalOutput(wire as WireObject);
    case undefined:
      return {
        value: decodedTranscript(wire, [], { envelope: 'verbatim', value: asJson(wire ?? null) }),
        issues: [
          {
            code: 'invalid-shape',
            severity: 'error',
            message:
              'not an OpenAI chat transcript: expected a message array or an object with messages, traj, history or answer_generation',
            path: [],
          },
        ],
      };
  }
}
