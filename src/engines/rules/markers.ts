/** Starts the one-line record of a collapsed tool call and its result (rule 1). */
export const TOOL_LINE_PREFIX = '[tool: ';
/** Starts the marker that stands where lines of a long tool output were cut (rule 2). */
export const TRUNCATION_PREFIX = '[truncated: ';
/** Starts the one-line marker of a dropped system message (rule 3). */
export const SYSTEM_MARKER_PREFIX = '[system message dropped: ';
/** Starts the marker of an assistant message folded into a later one (rule 4). */
export const ASSISTANT_MARKER_PREFIX = '[assistant message dropped: ';
/** Starts the first line of a message that earlier assistant messages were folded into (rule 4). */
export const MERGE_HEADER_PREFIX = '[condensed: ';

const LINE_PREFIXES = [
  TOOL_LINE_PREFIX,
  TRUNCATION_PREFIX,
  SYSTEM_MARKER_PREFIX,
  ASSISTANT_MARKER_PREFIX,
  MERGE_HEADER_PREFIX,
];

/**
 * True for a line the rules wrote (a collapsed record or a marker): such lines carry the references and the
 * preserved artifacts, so a later pass keeps them verbatim whatever it does to the text around them.
 */
export function isRuleLine(line: string): boolean {
  return line.endsWith(']') && LINE_PREFIXES.some((prefix) => line.startsWith(prefix));
}

/** True when a tool output was already cut by rule 2 (it is never cut twice). */
export function isTruncatedOutput(text: string): boolean {
  return text.includes(`\n${TRUNCATION_PREFIX}`) || text.startsWith(TRUNCATION_PREFIX);
}

/** True when a system message is already a rule-3 marker. */
export function isSystemMarker(text: string): boolean {
  return text.startsWith(SYSTEM_MARKER_PREFIX) && !text.includes('\n');
}
