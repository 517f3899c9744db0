import type { Message } from '../../model/message.js';
import type { ElementRef } from './references.js';

/** What a rule did to an element: collapsed a call with its result, cut an output, dropped a message. */
export type ElementKind = 'pair' | 'output' | 'system' | 'assistant';

/** One element a pass collapsed, with the original message its reference points at (what recall returns). */
export interface CollapsedElement {
  readonly ref: ElementRef;
  readonly kind: ElementKind;
  /** The original message the reference names (for `pair` and `output`, the tool message with the result). */
  readonly message: Message;
  /** For `pair` and `output`: the assistant message that made the calls. */
  readonly caller?: Message;
}
