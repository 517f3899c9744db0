import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { assistantSegmentPart } from './decode-turn.js';
import {
  type CallNameLookup,
  renderHermesPart,
  resultFromBody,
  resultText,
  sameInShareGpt,
} from './hermes-parts.js';
import { GPT_TAGS, segmentOf, TOOL_TAGS } from './parse-hermes-tags.js';
import type { TurnStyle } from './roles.js';

/** How a value is written; see {@link TurnStyle}. */
export type ValueStyle = TurnStyle;

const ALL_TAGS = [...GPT_TAGS, ...TOOL_TAGS];

/**
 * Writes the parts of one turn as its value. `plain`: the texts joined by newlines (a tool result as its bare
 * text). Otherwise Hermes tags, one piece per part separated by a newline, reusing a part's kept raw text while it
 * still says what the part says.
 */
export function renderValue(
  parts: readonly Part[],
  role: Message['role'],
  style: ValueStyle,
  nameOf: CallNameLookup,
): string {
  if (style === 'plain' || role === 'system' || role === 'user') {
    return parts
      .flatMap((part) => {
        const text = part.type === 'tool-result' ? resultText(part) : renderHermesPart(part, nameOf);
        return text === undefined ? [] : [text];
      })
      .join('\n');
  }
  const pieces: { core: string; lead: string; sep: string | undefined }[] = [];
  for (const part of parts) {
    const layout = layoutOf(part);
    const core = keptCore(part, layout.raw) ?? renderHermesPart(part, nameOf);
    if (core !== undefined) pieces.push({ core, lead: layout.lead ?? '', sep: layout.sep });
  }
  let out = '';
  pieces.forEach((piece, index) => {
    const sep = piece.sep ?? (index === pieces.length - 1 ? '' : '\n');
    out += piece.lead + piece.core + sep;
  });
  return out;
}

function layoutOf(part: Part): { raw?: string; sep?: string; lead?: string } {
  const kept = part.meta?.['sharegpt'];
  if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return {};
  const { raw, sep, lead } = kept as { raw?: unknown; sep?: unknown; lead?: unknown };
  return {
    ...(typeof raw === 'string' ? { raw } : {}),
    ...(typeof sep === 'string' ? { sep } : {}),
    ...(typeof lead === 'string' ? { lead } : {}),
  };
}

/** The kept core text of a part, when it still says what the part says. */
function keptCore(part: Part, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const segment = segmentOf(raw, ALL_TAGS);
  const decoded =
    segment.kind === 'tool_response'
      ? resultFromBody(segment.body, part.type === 'tool-result' ? part.callId : '')
      : assistantSegmentPart(segment, part.type === 'tool-call' ? part.id : '', undefined, 0);
  return sameInShareGpt(part, decoded) ? raw : undefined;
}
