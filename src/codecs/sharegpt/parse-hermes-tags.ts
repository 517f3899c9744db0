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

const patterns = new Map<string, RegExp>();

function patternFor(tags: readonly string[]): RegExp {
  const key = tags.join('|');
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    pattern = new RegExp(`<(${key})>([\\s\\S]*?)</\\1>`, 'g');
    patterns.set(key, pattern);
  }
  return pattern;
}

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
  for (const match of value.matchAll(patternFor(tags))) {
    pushGap(value.slice(last, match.index));
    segments.push({ kind: match[1] as string, core: match[0], body: match[2] as string, sep: '', lead: '' });
    last = match.index + match[0].length;
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
