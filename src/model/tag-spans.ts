/*
 * Finding `<tag>…</tag>` spans without a regex. `/<(a|b)>([\s\S]*?)<\/\1>/g` searches to the end of the text
 * again for every opening tag that is never closed, so a text of many unclosed tags (a truncated or hostile
 * value) takes time quadratic in its length; these scans are linear in it for a fixed list of tags.
 */

/** One `<tag>…</tag>` span: `start`/`end` bound the whole span, `bodyStart`/`bodyEnd` the text inside. */
export interface TagSpan {
  readonly tag: string;
  readonly start: number;
  readonly end: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

/**
 * The spans the global regex `<(tag1|tag2…)>([\s\S]*?)<\/\1>` matches in `text`, in order: the leftmost opening
 * tag that is closed later, up to the first closing tag of the same name, then on from its end. Tag names hold
 * neither `<` nor `>`.
 */
export function tagSpans(text: string, tags: readonly string[]): TagSpan[] {
  const spans: TagSpan[] = [];
  // Most texts hold no tag at all (every one starts with `<`): one scan answers for all of them.
  if (text.indexOf('<') === -1) return spans;
  const { opens, closes } = markersOf(tags);
  // Where each tag next opens at or after `position` (-2: not looked up yet, -1: never again or never closed).
  const next = tags.map(() => -2);
  let position = 0;
  for (;;) {
    let best = -1;
    for (let index = 0; index < tags.length; index++) {
      let at = next[index] as number;
      if (at === -1) continue;
      if (at < position) {
        at = text.indexOf(opens[index] as string, position);
        next[index] = at;
        if (at === -1) continue;
      }
      if (best === -1 || at < (next[best] as number)) best = index;
    }
    if (best === -1) return spans;
    const start = next[best] as number;
    const bodyStart = start + (opens[best] as string).length;
    const bodyEnd = text.indexOf(closes[best] as string, bodyStart);
    if (bodyEnd === -1) {
      // No later opening of this tag is closed either: the regex would search to the end for each of them.
      next[best] = -1;
      continue;
    }
    const end = bodyEnd + (closes[best] as string).length;
    spans.push({ tag: tags[best] as string, start, end, bodyStart, bodyEnd });
    position = end;
  }
}

// The callers pass a few fixed lists of tags, so their opening and closing markers are made once per list.
const markersByTags = new WeakMap<readonly string[], { opens: string[]; closes: string[] }>();

function markersOf(tags: readonly string[]): { opens: string[]; closes: string[] } {
  let markers = markersByTags.get(tags);
  if (markers === undefined) {
    markers = { opens: tags.map((tag) => `<${tag}>`), closes: tags.map((tag) => `</${tag}>`) };
    markersByTags.set(tags, markers);
  }
  return markers;
}

/** `text` without the spans of {@link tagSpans}: what `text.replace(/<(…)>[\s\S]*?<\/\1>/g, '')` returns. */
export function withoutTagSpans(text: string, tags: readonly string[]): string {
  const spans = tagSpans(text, tags);
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start);
    last = span.end;
  }
  return out + text.slice(last);
}

/**
 * The text inside the first `<tag>…</tag>` of `text`, as `/<tag>([\s\S]*?)<\/tag>/.exec(text)?.[1]`: when the
 * first opening is never closed, no later one is.
 */
export function firstTagBody(text: string, tag: string): string | undefined {
  const start = text.indexOf(`<${tag}>`);
  if (start === -1) return undefined;
  const bodyStart = start + tag.length + 2;
  const bodyEnd = text.indexOf(`</${tag}>`, bodyStart);
  return bodyEnd === -1 ? undefined : text.slice(bodyStart, bodyEnd);
}
