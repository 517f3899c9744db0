import { extractArtifacts } from '../inspect/artifacts.js';
import type { Message } from '../model/message.js';
import { textPart, toolResultText } from '../model/message-helpers.js';
import type { ToolResultPart } from '../model/part.js';
import { isCondensedOutput } from './condensed-markers.js';
import { digestToolResult } from './digest-tool-result.js';
import { mapMessages, mapParts } from './rewrite.js';
import { indexToolCalls, type ToolCallIndex } from './tool-call-index.js';

/** Options of {@link digestToolResults}. */
export interface DigestToolResultsOptions {
  /** Only messages at indices below this are digested: the protected tail starts here. */
  readonly before: number;
  /**
   * Outputs whose text is at most this long are left alone: a digest would not be shorter.
   * @default 200
   */
  readonly minChars?: number;
}

const MAX_DIGEST_SHARE = 0.7;

/**
 * The digest line plus every path, URL and error line of the output that it does not already show, so what an
 * agent needs to find its way back (and what the quality bar measures) outlives the output.
 */
function withOutputArtifacts(line: string, part: ToolResultPart): string {
  const artifacts = extractArtifacts([{ role: 'tool', parts: [part] }]);
  let out = line;
  const paths = notIn(line, artifacts.paths);
  if (paths.length > 0) out += `; paths: ${paths.join(', ')}`;
  const urls = notIn(line, artifacts.urls);
  if (urls.length > 0) out += `; urls: ${urls.join(' ')}`;
  const errors = notIn(line, artifacts.errorLines).filter((error) => !out.includes(error));
  if (errors.length > 0) out += `; errors: ${errors.join(' | ')}`;
  return out;
}

/** The values `line` does not already show, in order. */
function notIn(line: string, values: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const value of values) if (!line.includes(value)) out.push(value);
  return out;
}

/** Result of {@link digestToolResults}. */
export interface DigestToolResultsResult {
  /** The input array itself when nothing was digested. */
  readonly messages: readonly Message[];
  /** Tool results replaced by their digest. */
  readonly digested: number;
}

/**
 * Replaces every old tool output (in messages before `before`) longer than `minChars` by its one-line digest
 * ({@link digestToolResult}). Images and other non-text content of the result stay, after the digest, for the
 * image pass to handle. Outputs that already are a digest, a duplicate reference or another compactor's
 * placeholder are left alone, so running it twice changes nothing more.
 */
export function digestToolResults(
  messages: readonly Message[],
  options: DigestToolResultsOptions,
): DigestToolResultsResult {
  const minChars = options.minChars ?? 200;
  const calls = indexToolCalls(messages);
  let digested = 0;
  const out = mapMessages(messages, (message, index) => {
    if (index >= options.before) return message;
    const done = digestMessage(message, index, calls, minChars);
    digested += done.digested;
    return done.message;
  });
  return { messages: out, digested };
}

/**
 * One message of {@link digestToolResults}: its tool outputs longer than `minChars` digested. `calls` indexes the
 * transcript the message sits in at `index`, so each result is described by its own call.
 */
export function digestMessage(
  message: Message,
  index: number,
  calls: ToolCallIndex,
  minChars: number,
): { readonly message: Message; readonly digested: number } {
  let digested = 0;
  const out = mapParts(message, (part, partIndex) => {
    if (part.type !== 'tool-result') return part;
    const text = toolResultText(part.content);
    if (text.length <= minChars || isCondensedOutput(text)) return part;
    const digest = withOutputArtifacts(digestToolResult(calls.callFor(index, partIndex), part), part);
    // A listing whose every path must survive can be nearly as long as the output: keep the output then.
    if (digest.length > text.length * MAX_DIGEST_SHARE) return part;
    digested++;
    const kept = part.content.filter((content) => content.type !== 'text');
    const next: ToolResultPart = { ...part, content: [textPart(digest), ...kept] };
    return next;
  });
  return { message: out, digested };
}
