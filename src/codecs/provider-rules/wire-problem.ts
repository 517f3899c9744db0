/** Stable codes of provider-rule problems found in a wire value. */
export type WireProblemCode =
  | 'not-an-object'
  | 'no-messages'
  | 'unknown-key'
  | 'bad-role'
  | 'bad-content'
  | 'empty-content'
  | 'bad-block'
  | 'bad-tool-call'
  | 'bad-tool-id'
  | 'duplicate-tool-id'
  | 'unanswered-call'
  | 'orphan-result'
  | 'misplaced-result'
  | 'first-message'
  | 'alternation'
  | 'unsigned-thinking';

/** One way a request (or dataset line) would be rejected by the provider's API. */
export interface WireProblem {
  readonly code: WireProblemCode;
  /** Where: `messages[3].content[0]`, or `''` for the top level. */
  readonly path: string;
  readonly message: string;
}

/** A read-only JSON object from the wire. */
export type WireRecord = Readonly<Record<string, unknown>>;

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Appends a problem. */
export function problem(out: WireProblem[], code: WireProblemCode, path: string, message: string): void {
  out.push({ code, path, message });
}

/** Reports every key of `object` not in `allowed`. */
export function checkKeys(
  scope: WireScope,
  object: WireRecord,
  allowed: ReadonlySet<string>,
  path: string,
  out: WireProblem[],
  what: string,
): void {
  if (scope !== 'request') return;
  for (const key of Object.keys(object)) {
    if (!allowed.has(key))
      problem(out, 'unknown-key', path, `${what} has a key the API does not accept: "${key}"`);
  }
}

/**
 * What to check: `request`, a whole request or dataset line in the API's own shape (every key the API does not
 * accept is a problem); `structure`, only what the provider enforces on the conversation itself (roles, content
 * shapes, tool pairing, ids, alternation), inside whatever envelope and dialect keys hold it.
 */
export type WireScope = 'request' | 'structure';

/** Options of the provider-rule checks. */
export interface WireCheckOptions {
  /** @default 'request' */
  readonly scope?: WireScope;
  /**
   * Tool calls left without a result at the very end: a problem for a request (the API rejects it), but a
   * recorded run that stopped mid-step legitimately ends that way.
   * @default true
   */
  readonly trailingCalls?: boolean;
}

/**
 * The messages of a request (`{messages, …}`) or bare message list, after the envelope's problems: a request that
 * is not an object, keys outside `requestKeys` (and whatever `checkRequest` adds, in `request` scope), no
 * messages. `undefined` when there is no message to check.
 */
export function requestMessages(
  wire: unknown,
  scope: WireScope,
  requestKeys: ReadonlySet<string>,
  out: WireProblem[],
  checkRequest?: (request: WireRecord) => void,
): readonly unknown[] | undefined {
  const list = Array.isArray(wire) ? wire : isObject(wire) ? wire['messages'] : undefined;
  if (scope === 'request') {
    if (!isObject(wire)) {
      problem(out, 'not-an-object', '', 'the request is not a JSON object with "messages"');
      if (!Array.isArray(wire)) return undefined;
    } else {
      checkKeys(scope, wire, requestKeys, '', out, 'the request');
      checkRequest?.(wire);
    }
  }
  if (!Array.isArray(list) || list.length === 0) {
    problem(out, 'no-messages', 'messages', 'there are no messages');
    return undefined;
  }
  return list;
}
