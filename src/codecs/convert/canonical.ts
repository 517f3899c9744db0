import type { Message } from '../../model/message.js';
import type { Part, ToolResultContentPart } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';

/**
 * The transcript as the model says it, and nothing a wire format added: roles, parts and ids, without origins,
 * codec data or part meta. Encoding it gives a format's canonical shape (`{"messages": [...]}` for OpenAI and the
 * AI SDK, `{system, messages}` for Anthropic, `{conversations}` for ShareGPT) instead of the envelope and dialect
 * the transcript was read in.
 */
export function canonicalTranscript(transcript: Transcript): Transcript {
  return { messages: transcript.messages.map(canonicalMessage) };
}

function canonicalMessage(message: Message): Message {
  return {
    role: message.role,
    parts: message.parts.map(canonicalPart),
    ...(message.id === undefined ? {} : { id: message.id }),
  };
}

function canonicalPart(part: Part): Part {
  const { meta: _meta, ...rest } = part;
  if (rest.type !== 'tool-result') return rest as Part;
  return { ...rest, content: rest.content.map((item) => canonicalPart(item) as ToolResultContentPart) };
}
