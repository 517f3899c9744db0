/**
 * The response header saying what the proxy did with the request: `action; key=value; …`, stable and
 * machine-parsable ({@link parseCondenseHeader}). Actions: `passthrough` (original bytes forwarded),
 * `compacted` (the engine compacted the prompt), `reused` (the conversation's stored compaction was spliced in,
 * no new summary), `error` (the proxy answered itself). Keys, each present only when it applies:
 * `tokens` (rough estimate: `N`, or `before->after`), `messages` (wire messages `before->after`), `engine`,
 * `summary` (checkpoint source: `model`, `extractive`, `fallback-marker`, `none`), `reused` (original messages
 * the stored compaction stood for, when a compaction started from it), `conversation` (12 hex characters),
 * `reason` (`under-threshold`, `blocked`, `no-progress`, `aborted`, `nothing-to-fold`, `engine-error`,
 * `decode-issues`, `not-json`, `too-deep`, `not-a-transcript`, `route`, `body-too-large`, `upstream-unreachable`,
 * and for Responses API requests whose history the provider keeps, `previous-response-id` and
 * `stored-conversation`).
 */
export const CONDENSE_HEADER = 'x-condense';

/** The request header naming a conversation (otherwise a hash of protocol, model, system prompt, first user message). */
export const CONVERSATION_HEADER = 'x-condense-conversation';

/** What the proxy did with a request: the first word of the `x-condense` header. */
export type ProxyAction = 'passthrough' | 'compacted' | 'reused' | 'error';

/** The `x-condense` header as data: an action and `key=value` figures, in order. */
export interface CondenseHeader {
  readonly action: ProxyAction;
  readonly fields: readonly (readonly [string, string | number])[];
}

/**
 * Renders `action; key=value; key=value`, e.g. `compacted; engine=compressor; tokens=9000->2100;
 * messages=80->14; summary=extractive; conversation=3f2a…`. Values never contain `;`, `=` or spaces.
 */
export function formatCondenseHeader(header: CondenseHeader): string {
  return [header.action, ...header.fields.map(([key, value]) => `${key}=${value}`)].join('; ');
}

/** Parses an `x-condense` value back into its action and fields (keys as written, values as strings). */
export function parseCondenseHeader(value: string): {
  readonly action: string;
  readonly fields: Readonly<Record<string, string>>;
} {
  const [action = '', ...rest] = value.split(';').map((piece) => piece.trim());
  const fields: Record<string, string> = {};
  for (const piece of rest) {
    const at = piece.indexOf('=');
    if (at > 0) fields[piece.slice(0, at)] = piece.slice(at + 1);
  }
  return { action, fields };
}

/** `before->after`, or just the number when nothing changed. */
export function change(before: number, after: number): string {
  return `${before}->${after}`;
}
