import { tagSpans } from '../../model/tag-spans.js';

/**
 * Splits a Hermes trajectory value into its tagged pieces: `<think>…</think>` and `<tool_call>…</tool_call>` in
 * `gpt` turns, `<tool_response>…</tool_response>` in `tool` turns, and the text between them. A value is always
 * the concatenation, over its pieces, of `lead + core + sep`, so it can be written back exactly.
 */

/** One piece of a tagged value: `kind` is `text` or the tag name. */
export interface TagSegment {
  readonly kind: string;
  /** The piece's exact source without surrounding whitespace (the whole tag, or the text). */
  readonly core: string;
  /** The text inside the tag (for text pieces, the text itself). */
  readonly body: string;
  /** Whitespace that follows the piece. */
  readonly sep: string;
  /** Whitespace before the piece (only ever on the first piece). */
  readonly lead: string;
}
/** Tags of assistant (`gpt`) values. */
export const GPT_TAGS = ['think', 'tool_call'] as const;
/** Tags of tool values. */
export const TOOL_TAGS = ['tool_response'] as const;

/**
 * The pieces of `value`, or `undefined` when it holds none of `tags` (the value is then plain text). Whitespace
 * between pieces is the `sep` of the piece before it; whitespace before the first piece is its `lead`.
 */
export function splitTagged(value: string, tags: readonly string[]): TagSegment[] | undefined {
  const segments: { kind: string; core: string; body: string; sep: string; lead: string }[] = [];
  let leading = '';
  let last = 0;
  const pushGap = (gap: string): void => {
    const rest = gap.trimStart();
    const space = gap.slice(0, gap.length - rest.length);
    const previous = segments[segments.length - 1];
    if (previous === undefined) leading += space;
    else previous.sep += space;
    if (rest === '') return;
    const core = rest.trimEnd();
    segments.push({ kind: 'text', core, body: core, sep: rest.slice(core.length), lead: '' });
  };
  for (const span of tagSpans(value, tags)) {
    pushGap(value.slice(last, span.start));
    segments.push({
      kind: span.tag,
      core: value.slice(span.start, span.end),
      body: value.slice(span.bodyStart, span.bodyEnd),
      sep: '',
      lead: '',
    });
    last = span.end;
  }
  if (segments.length === 0 && last === 0) return undefined;
  pushGap(value.slice(last));
  const first = segments[0];
  if (first !== undefined) first.lead = leading;
  return segments;
}

/**
 * The single piece a kept core text stands for, to check that it still says what a part says: a tagged piece
 * when `core` is exactly one tag, otherwise text.
 */
export function segmentOf(core: string, tags: readonly string[]): TagSegment {
  const segments = splitTagged(core, tags);
  if (segments !== undefined && segments.length === 1) return segments[0] as TagSegment;
  return { kind: 'text', core, body: core.trim(), sep: '', lead: '' };
}

/** The text inside `<think>`/`<tool_response>` without the newline Hermes writes on each side. */
export function stripWrappingNewlines(body: string): string {
  const start = body.startsWith('\n') ? 1 : 0;
  const end = body.length > start && body.endsWith('\n') ? body.length - 1 : body.length;
  return body.slice(start, end);
}
