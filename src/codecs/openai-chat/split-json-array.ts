/**
 * The source text of each element of a JSON array, when `text` is exactly `[e1, e2, …]` written with `", "`
 * between elements (Python's `json.dumps` style, which LLaMA-Factory tool messages use). Returns `undefined`
 * for anything else, so joining the elements back with {@link joinJsonArray} always gives `text` again.
 */
export function splitJsonArray(text: string): string[] | undefined {
  try {
    if (!Array.isArray(JSON.parse(text))) return undefined;
  } catch {
    return undefined;
  }
  const elements: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') {
      depth--;
      if (depth === 0) elements.push(text.slice(start, index).trim());
    } else if (char === ',' && depth === 1) {
      elements.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  const kept = elements.length === 1 && elements[0] === '' ? [] : elements;
  return joinJsonArray(kept) === text ? kept : undefined;
}

/** The inverse of {@link splitJsonArray}. */
export function joinJsonArray(elements: readonly string[]): string {
  return `[${elements.join(', ')}]`;
}
