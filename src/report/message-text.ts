import type { Message } from '../model/message.js';
import { toolResultText } from '../model/message-helpers.js';
import type { Part } from '../model/part.js';
import { formatNumber } from '../transforms/text-facts.js';

/** The longest full text shown for one message; the rest is counted, not shown, to keep the page small. */
export const MAX_FULL_TEXT = 20_000;
/** The longest one-line preview. */
export const MAX_PREVIEW = 180;

/** A message's parts as plain text for people: tool calls and results labelled, images and blobs described. */
export function displayText(message: Message): string {
  return message.parts.map(partText).join('\n\n');
}

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
      return part.source.kind === 'url'
        ? `[image: ${part.source.url}]`
        : `[image: ${part.source.mediaType ?? 'inline'}, ${formatNumber(part.source.data.length)} base64 chars]`;
    case 'tool-call':
      return `→ ${part.name}(${part.arguments})`;
    case 'tool-result': {
      const images = part.content.filter((item) => item.type === 'image').length;
      const head = `← ${part.name ?? 'result'}${part.isError === true ? ' (error)' : ''} [${part.callId}]`;
      return `${head}\n${toolResultText(part.content)}${images > 0 ? `\n[${images} image(s)]` : ''}`;
    }
    case 'reasoning':
      return part.text === '' && part.data !== undefined
        ? '[encrypted reasoning]'
        : `[reasoning] ${part.text}`;
    case 'opaque':
      return `[${part.kind}] ${JSON.stringify(part.value) ?? ''}`;
  }
}

/** The full text capped at {@link MAX_FULL_TEXT} characters, saying how much was left out. */
export function cappedText(text: string): string {
  if (text.length <= MAX_FULL_TEXT) return text;
  const left = text.length - MAX_FULL_TEXT;
  return `${text.slice(0, MAX_FULL_TEXT)}\n… ${formatNumber(left)} more characters not shown`;
}

/** One line of the start of the text (whitespace collapsed), with an ellipsis when it was cut. */
export function previewOf(text: string): string {
  const line = text
    .slice(0, MAX_PREVIEW * 4)
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= MAX_PREVIEW) return line;
  return `${line.slice(0, MAX_PREVIEW - 1)}…`;
}
