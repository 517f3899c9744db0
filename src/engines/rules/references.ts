import { appendAll } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import { toolResultText } from '../../model/message-helpers.js';
import { SYSTEM_MARKER_PREFIX } from './markers.js';

/**
 * Where a collapsed element came from: the original message's label (its id, else `m<index>` with the index
 * in the uncompacted transcript) and the content hash of that message.
 */
export interface ElementRef {
  readonly label: string;
  readonly hash: string;
}

// Ids made of other characters (spaces, slashes) would not survive in running text; such messages use `m<index>`.
const LABEL_CHARS = /^[A-Za-z0-9._:-]{1,100}$/;
const REF_PATTERN = /\bref=([A-Za-z0-9._:-]{1,100})#([0-9a-f]{8})(?![0-9a-f])/g;

/** The label of a message: its id when it has a usable one, else its index in the uncompacted transcript. */
export function messageLabel(message: Message, originalIndex: number): string {
  return message.id !== undefined && LABEL_CHARS.test(message.id) ? message.id : `m${originalIndex}`;
}

/** `ref=<label>#<hash>`, as written into collapsed lines. */
export function formatRef(ref: ElementRef): string {
  return `ref=${refKey(ref)}`;
}

/** `<label>#<hash>`: the key the recall tool and `restoreTranscript` take. */
export function refKey(ref: ElementRef): string {
  return `${ref.label}#${ref.hash}`;
}

/** The message index a `m<index>` label names, if it is one. */
export function indexOfLabel(label: string): number | undefined {
  const match = /^m(\d{1,9})$/.exec(label);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Every reference written in a text, in order (repeats included). */
export function refsIn(text: string): ElementRef[] {
  if (!text.includes('ref=')) return [];
  const out: ElementRef[] = [];
  for (const match of text.matchAll(REF_PATTERN)) {
    out.push({ label: match[1] as string, hash: match[2] as string });
  }
  return out;
}

/**
 * The references a message of a compacted transcript carries: in its text and in its tool-result text. User
 * messages are the user's own words and never rewritten, so the only references read from them are whole
 * system-message markers (formats without mid-conversation system messages store those as user text).
 */
export function refsOfMessage(message: Message): ElementRef[] {
  const out: ElementRef[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') {
      if (message.role !== 'user' || isSystemMarkerText(part.text)) appendAll(out, refsIn(part.text));
    } else if (part.type === 'tool-result') {
      appendAll(out, refsIn(toolResultText(part.content)));
    }
  }
  return out;
}

function isSystemMarkerText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith(SYSTEM_MARKER_PREFIX) && !trimmed.includes('\n');
}
