import type { Message } from '../model/message.js';
import { textPart, withParts } from '../model/message-helpers.js';
import type { Part } from '../model/part.js';
import type { SummarySource } from '../summarizer/summarizer.js';
import { renderCheckpoint } from '../transforms/checkpoint-text.js';
import type { SummaryStyle } from './trajectory-settings.js';

/** The prefix Hermes' trajectory compressor starts its summary turns with (recognised by `parseCheckpoint`). */
export const HERMES_SUMMARY_PREFIX = '[CONTEXT SUMMARY]:';

/** Marks a message condense wrote as the summary of a trajectory's middle (in `meta.condense.kind`). */
export const TRAJECTORY_SUMMARY_KIND = 'trajectory-summary';

/** The text of a summary turn in the chosen style. A model answer that already carries the prefix keeps one. */
export function summaryTurnText(body: string, source: SummarySource, style: SummaryStyle): string {
  switch (style) {
    case 'hermes': {
      const trimmed = body.trim();
      const bare = trimmed.startsWith(HERMES_SUMMARY_PREFIX)
        ? trimmed.slice(HERMES_SUMMARY_PREFIX.length).trim()
        : trimmed;
      return bare === '' ? HERMES_SUMMARY_PREFIX : `${HERMES_SUMMARY_PREFIX} ${bare}`;
    }
    case 'condense':
      return renderCheckpoint(body, source);
  }
}

/** The summary turn: a user message (ShareGPT `human`), marked in `meta.condense` with its source. */
export function summaryMessage(text: string, source: SummarySource, turns: number): Message {
  return {
    role: 'user',
    parts: [textPart(text)],
    meta: { condense: { kind: TRAJECTORY_SUMMARY_KIND, source, turns } },
  };
}

/** A copy of a system turn with `notice` appended to its last text part (or as a new text part). */
export function withNotice(message: Message, notice: string): Message {
  let last = -1;
  message.parts.forEach((part, index) => {
    if (part.type === 'text') last = index;
  });
  if (last === -1) return withParts(message, [...message.parts, textPart(notice.trimStart())]);
  const parts: Part[] = message.parts.map((part, index) =>
    index === last && part.type === 'text' ? { ...part, text: `${part.text}${notice}` } : part,
  );
  return withParts(message, parts);
}
