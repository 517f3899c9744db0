import type { ToolResultContentPart, ToolResultPart } from '../../model/part.js';

/**
 * The marker a failed tool result carries in its text on a wire without an error flag (OpenAI, ShareGPT), so the
 * model and every later step read the call as failed; the openai and sharegpt codecs read it back as `isError`.
 */
export const TOOL_ERROR_MARKER = '[tool error]';

/**
 * Result content with the error marker in front: joined to a leading text by a space, else as a text of its own
 * (which a wire writing content as one string joins to the rest with a newline).
 */
export function markErrorContent(content: readonly ToolResultContentPart[]): ToolResultContentPart[] {
  const [first, ...rest] = content;
  if (first?.type === 'text') return [{ ...first, text: `${TOOL_ERROR_MARKER} ${first.text}` }, ...rest];
  return [{ type: 'text', text: TOOL_ERROR_MARKER }, ...content];
}

/** A result read from a wire without an error flag: a leading marker makes it a failure, marker removed. */
export function unmarkResult(part: ToolResultPart): ToolResultPart {
  const [first, ...rest] = part.content;
  if (first?.type !== 'text' || !first.text.startsWith(TOOL_ERROR_MARKER)) return part;
  const after = first.text.slice(TOOL_ERROR_MARKER.length);
  let content: ToolResultContentPart[];
  if (after === '') content = rest;
  else if (after.startsWith(' ')) content = [{ ...first, text: after.slice(1) }, ...rest];
  else if (after.startsWith('\n')) content = [{ ...first, text: after.slice(1) }, ...rest];
  else return part;
  return { ...part, content, isError: true };
}
