import type { JsonValue } from '../../../model/json.js';
import type { Message } from '../../../model/message.js';
import type { Transcript } from '../../../model/transcript.js';
import { compact } from '../meta.js';

/** A decoded transcript with its origin and the envelope data the encoder needs. */
export function buildTranscript(
  wire: unknown,
  messages: readonly Message[],
  fields: Record<string, JsonValue | undefined>,
): Transcript {
  const codec = compact(fields);
  return {
    messages,
    meta: {
      origin: { format: 'openai', wire, messages },
      format: 'openai',
      ...(codec === undefined ? {} : { codec: { openai: codec } }),
    },
  };
}
