import type { Message } from '../../src/model/message.js';
import type { Part, ToolResultContentPart } from '../../src/model/part.js';
import type { Transcript } from '../../src/model/transcript.js';

/** Parts without any meta, for comparing what messages say. */
export function bareParts(parts: readonly (Part | ToolResultContentPart)[]): unknown[] {
  return parts.map((part) => {
    const { meta: _meta, ...rest } = part;
    return rest.type === 'tool-result' ? { ...rest, content: bareParts(rest.content) } : rest;
  });
}

/** What a message says: role and parts without meta. */
export function said(message: Message): string {
  return `${message.role} ${JSON.stringify(bareParts(message.parts))}`;
}

/** Placeholder texts encoders write for what a wire cannot hold; not the person's words. */
const PLACEHOLDER = /^\[(?:[\w-]+ omitted|image)\]$/;
const SYSTEM_REMINDER = /^<system-reminder>\n[\s\S]*\n<\/system-reminder>$/;

/**
 * The person's prompts: the text of every user message, in order, as one string per message (placeholders and
 * system text the encoder moved into user turns left out, blank texts skipped), joined. Message boundaries are
 * not compared: a provider may merge neighbouring user turns.
 */
export function promptText(transcript: Transcript, skipOpening = false): string {
  const texts: string[] = [];
  transcript.messages.forEach((message, index) => {
    if (message.role !== 'user') return;
    for (const part of message.parts) {
      if (part.type !== 'text' || part.text.trim() === '') continue;
      if (PLACEHOLDER.test(part.text) || SYSTEM_REMINDER.test(part.text)) continue;
      if (skipOpening && index === 0 && part.text === '(continued)') continue;
      texts.push(part.text);
    }
  });
  // A format that writes a message as one string puts placeholders on lines of their own.
  return texts
    .join('\n')
    .split('\n')
    .filter((line) => !PLACEHOLDER.test(line))
    .join('\n');
}

/** Every tool call in order with its name and the text and error flag of its result (ids left out). */
export function toolPairs(transcript: Transcript): string[] {
  const results = new Map<string, string[]>();
  for (const message of transcript.messages)
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      // Images and opaque items are accounted for by `features` (a wire may hold them or a placeholder).
      const text = part.content
        .flatMap((item) => (item.type === 'text' && !PLACEHOLDER.test(item.text) ? [item.text] : []))
        .join('\n');
      const list = results.get(part.callId) ?? [];
      list.push(`${part.isError === true ? 'error: ' : ''}${text}`);
      results.set(part.callId, list);
    }
  const out: string[] = [];
  for (const message of transcript.messages)
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      out.push(`${part.name} → ${results.get(part.id)?.shift() ?? '(no result)'}`);
    }
  return out;
}

/** Counts of everything a conversion may carry, change or drop. */
export interface Features {
  reasoning: number;
  encrypted: number;
  signatures: number;
  images: number;
  resultImages: number;
  errors: number;
  calls: number;
  system: number;
  opaque: number;
}

/** Counts the features of a transcript. */
export function features(transcript: Transcript): Features {
  const out: Features = {
    reasoning: 0,
    encrypted: 0,
    signatures: 0,
    images: 0,
    resultImages: 0,
    errors: 0,
    calls: 0,
    system: 0,
    opaque: 0,
  };
  for (const message of transcript.messages) {
    if (message.role === 'system') out.system++;
    for (const part of message.parts) {
      if (part.type === 'reasoning') {
        if (part.text === '' && part.data !== undefined) out.encrypted++;
        else out.reasoning++;
        if (part.signature !== undefined) out.signatures++;
      } else if (part.type === 'image') out.images++;
      else if (part.type === 'tool-call') out.calls++;
      else if (part.type === 'opaque') out.opaque++;
      else if (part.type === 'tool-result') {
        if (part.isError === true) out.errors++;
        for (const item of part.content) {
          if (item.type === 'image') out.resultImages++;
          if (item.type === 'opaque') out.opaque++;
        }
      }
    }
  }
  return out;
}
