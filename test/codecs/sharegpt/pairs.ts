import type { Part, ToolResultContentPart } from '../../../src/model/part.js';
import type { Transcript } from '../../../src/model/transcript.js';

/** A tool call and the result the tool messages right after it give it (by call id), as text. */
export interface CallPair {
  readonly name: string;
  readonly arguments: string;
  readonly result: string | undefined;
}

function contentText(content: readonly ToolResultContentPart[]): string {
  return content
    .flatMap((item) => (item.type === 'text' ? [item.text] : item.type === 'image' ? ['[image]'] : []))
    .join('\n');
}

/**
 * Every tool call of a transcript, in order, with the text of the result found (by id) in the run of tool
 * messages right after its message. Ids are not compared, so transcripts whose formats invent ids line up.
 */
export function callPairs(transcript: Transcript): CallPair[] {
  const pairs: CallPair[] = [];
  const messages = transcript.messages;
  messages.forEach((message, index) => {
    const calls = message.parts.filter(
      (part): part is Extract<Part, { type: 'tool-call' }> => part.type === 'tool-call',
    );
    if (calls.length === 0) return;
    const results = new Map<string, string>();
    for (let next = index + 1; messages[next]?.role === 'tool'; next++) {
      for (const part of messages[next]?.parts ?? []) {
        if (part.type === 'tool-result' && !results.has(part.callId))
          results.set(part.callId, contentText(part.content));
      }
    }
    for (const call of calls)
      pairs.push({ name: call.name, arguments: call.arguments, result: results.get(call.id) });
  });
  return pairs;
}
