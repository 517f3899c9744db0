/**
 * JSON text written in pieces: a document whose long arrays are made item by item, so a large output is never
 * held whole in memory while the bytes stay exactly what `JSON.stringify` prints for the same value.
 */

const ITEMS = Symbol('streamed JSON array items');

/** Characters gathered before {@link jsonChunks} hands a chunk out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * An array whose items are made only when {@link jsonChunks} writes them. `JSON.stringify` sees it as the
 * array of its items (through `toJSON`, so it is made whole then), which is what the pieces are held to.
 */
export class StreamedArray {
  readonly [ITEMS]: () => Iterable<unknown>;

  constructor(items: () => Iterable<unknown>) {
    this[ITEMS] = items;
  }

  /** The items as one array: what `JSON.stringify` writes, and what the streamed pieces match. */
  toJSON(): unknown[] {
    return [...this[ITEMS]()];
  }
}

/** Options of {@link jsonChunks}. */
export interface JsonChunksOptions {
  /** Indentation, as `JSON.stringify`'s `space` argument. @default 0 (no whitespace) */
  readonly space?: number | string | undefined;
  /** Text written after the JSON (a newline, say). @default '' */
  readonly end?: string;
}

/**
 * `JSON.stringify(value, null, space)` followed by `end`, in chunks of about 64 K characters made as they are
 * asked for. A {@link StreamedArray} — the value itself, an item of one, or a property of a plain object written
 * in pieces — is written one item at a time, each item stringified alone and indented to its depth; a plain
 * object is written one property at a time when one of its own properties is a streamed array; anything else is
 * stringified whole. `toJSON` methods run as in `JSON.stringify`, except that those of values stringified alone
 * get `''` as their key. A value JSON cannot write at the top (`undefined`) is written as `null`.
 */
export function* jsonChunks(value: unknown, options: JsonChunksOptions = {}): Generator<string> {
  const layout = layoutOf(options.space);
  let chunk = '';
  for (const piece of pieces(value, '', layout)) {
    chunk += piece;
    if (chunk.length < CHUNK_CHARS) continue;
    yield chunk;
    chunk = '';
  }
  const text = chunk + (options.end ?? '');
  if (text !== '') yield text;
}

interface Layout {
  /** One level of indentation (`JSON.stringify`'s gap), empty for compact JSON. */
  readonly gap: string;
  /** What follows a property name. */
  readonly colon: string;
}

function layoutOf(space: number | string | undefined): Layout {
  // The same rule as JSON.stringify: a number counts spaces (at most 10), a string gives its first 10 characters.
  const gap =
    typeof space === 'number'
      ? ' '.repeat(Math.max(0, Math.min(10, Math.trunc(space))))
      : typeof space === 'string'
        ? space.slice(0, 10)
        : '';
  return { gap, colon: gap === '' ? ':' : ': ' };
}

function* pieces(value: unknown, indent: string, layout: Layout): Generator<string> {
  if (value instanceof StreamedArray) {
    yield* arrayPieces(value, indent, layout);
  } else if (holdsStreamedArray(value)) {
    yield* objectPieces(value, indent, layout);
  } else {
    yield alone(value, indent, layout) ?? 'null';
  }
}

function* arrayPieces(array: StreamedArray, indent: string, layout: Layout): Generator<string> {
  const inner = indent + layout.gap;
  const newline = layout.gap === '' ? '' : '\n';
  let first = true;
  for (const item of array[ITEMS]()) {
    yield `${first ? '[' : ','}${newline}${inner}`;
    first = false;
    yield* pieces(item, inner, layout);
  }
  yield first ? '[]' : `${newline}${indent}]`;
}

function* objectPieces(object: object, indent: string, layout: Layout): Generator<string> {
  const inner = indent + layout.gap;
  const newline = layout.gap === '' ? '' : '\n';
  let first = true;
  for (const [key, value] of Object.entries(object)) {
    const streamed = value instanceof StreamedArray || holdsStreamedArray(value);
    // A property whose value JSON cannot write (undefined, a function, a symbol) is left out, as JSON.stringify does.
    const text = streamed ? undefined : alone(value, inner, layout);
    if (!streamed && text === undefined) continue;
    yield `${first ? '{' : ','}${newline}${inner}${JSON.stringify(key)}${layout.colon}`;
    first = false;
    if (text === undefined) yield* pieces(value, inner, layout);
    else yield text;
  }
  yield first ? '{}' : `${newline}${indent}}`;
}

/** True for a plain object (no `toJSON`) with a streamed array among its own properties. */
function holdsStreamedArray(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof StreamedArray) {
    return false;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return Object.values(value).some((property) => property instanceof StreamedArray);
}

/**
 * A value stringified on its own and indented to sit at `indent`; `undefined` when JSON cannot write it. Line
 * breaks in JSON.stringify's output are all layout (a line break inside a string is escaped as `\n`), so each
 * gets the indentation of the place the value sits in.
 */
function alone(value: unknown, indent: string, layout: Layout): string | undefined {
  const text = JSON.stringify(value, null, layout.gap) as string | undefined;
  if (text === undefined || indent === '') return text;
  return text.replaceAll('\n', `\n${indent}`);
}
