/** Starts every digest that replaced a tool output, so the agent knows the output was condensed. */
export const DIGEST_PREFIX = '[output condensed]';

/** Starts every reference that replaced a duplicated tool output. */
export const DUPLICATE_PREFIX = '[duplicate output]';

// Markers other compactors leave in tool outputs (Hermes), recognised so their text is not condensed again.
const FOREIGN_PREFIXES = ['[Duplicate tool output', '[Old tool output cleared', '[screenshot removed'];

/** True when a tool output is already a digest, a duplicate reference or another compactor's placeholder. */
export function isCondensedOutput(text: string): boolean {
  // Every marker starts with `[`: most outputs are told apart by their first character.
  const first = text.charCodeAt(0);
  if (first === OPENING_BRACKET) return startsWithMarker(text);
  return first <= 0x20 || first > 0x7f ? startsWithMarker(text.trimStart()) : false;
}

const OPENING_BRACKET = 0x5b;

function startsWithMarker(start: string): boolean {
  return (
    start.startsWith(DIGEST_PREFIX) ||
    start.startsWith(DUPLICATE_PREFIX) ||
    FOREIGN_PREFIXES.some((prefix) => start.startsWith(prefix))
  );
}
