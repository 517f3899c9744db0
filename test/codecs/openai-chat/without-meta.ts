import type { Part } from '../../../src/model/part.js';

/** Parts without codec meta (recursively, tool-result content included): what the model itself carries. */
export function withoutMeta(parts: readonly Part[]): unknown[] {
  return parts.map((part) => {
    const { meta: _meta, ...rest } = part;
    if (rest.type !== 'tool-result') return rest;
    return { ...rest, content: withoutMeta(rest.content) };
  });
}
