import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** YAML text parsed for a configuration reader: its value, or the first syntax error with its line. */
export type ParsedYaml =
  | {
      readonly ok: true;
      readonly value: unknown;
      /** 1-based line of the key (or sequence item) at `path`, if the document has it. */
      lineOf(path: readonly PropertyKey[]): number | undefined;
    }
  | { readonly ok: false; readonly message: string; readonly line: number | undefined };

/**
 * Parses configuration YAML keeping where each key sits, so a reader can say on which line a wrong key or value
 * is. The first syntax error is returned, not thrown, for the reader to word.
 */
export function parseYamlText(text: string): ParsedYaml {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const error = document.errors[0];
  if (error !== undefined) {
    return {
      ok: false,
      message: error.message.split('\n')[0] ?? 'invalid YAML',
      line: lines.linePos(error.pos[0]).line,
    };
  }
  return {
    ok: true,
    value: document.toJS(),
    lineOf(path) {
      let node: unknown = document.contents;
      let line: number | undefined;
      for (const step of path) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => isScalar(item.key) && String(item.key.value) === String(step),
          );
          if (pair === undefined || !isScalar(pair.key) || pair.key.range == null) return undefined;
          line = lines.linePos(pair.key.range[0]).line;
          node = pair.value;
        } else if (isSeq(node) && typeof step === 'number') {
          const item = node.items[step] as { range?: [number, number, number] | null } | undefined;
          if (item?.range == null) return undefined;
          line = lines.linePos(item.range[0]).line;
          node = item;
        } else {
          return undefined;
        }
      }
      return line;
    },
  };
}
