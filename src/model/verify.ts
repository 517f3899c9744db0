import { runStarts } from './arrays.js';
import type { Message } from './message.js';
import type { Part } from './part.js';
import type { Role } from './role.js';
import type { Transcript } from './transcript.js';

/** Provider rules to check beyond the ones every provider shares. */
export type VerifyProvider = 'openai' | 'anthropic' | 'generic';

/** Stable codes of transcript violations. */
export type ViolationCode =
  | 'missing-result'
  | 'duplicate-result'
  | 'orphan-result'
  | 'result-before-call'
  | 'result-not-adjacent'
  | 'duplicate-call-id'
  | 'misplaced-call'
  | 'misplaced-result'
  | 'empty-message'
  | 'first-not-user'
  | 'alternation'
  | 'system-not-first'
  | 'reasoning-not-first';

/** One rule a transcript breaks, with the message index where it shows. */
export interface Violation {
  readonly code: ViolationCode;
  readonly index: number;
  readonly message: string;
  readonly callId?: string;
}

/** Options of {@link verifyTranscript}. */
export interface VerifyOptions {
  /** @default 'generic' */
  readonly provider?: VerifyProvider;
}

/**
 * Lists every way the transcript would be rejected by a provider: tool calls without exactly one result,
 * results without a call or before it or not directly after it, empty messages, and for Anthropic the
 * first-message, system-placement, alternation and thinking-first rules. An empty list means the transcript is
 * valid.
 */
export function verifyTranscript(transcript: Transcript, options: VerifyOptions = {}): Violation[] {
  const provider = options.provider ?? 'generic';
  const violations: Violation[] = [];
  const messages = transcript.messages;
  checkParts(messages, violations);
  checkToolPairs(messages, violations);
  if (provider === 'anthropic') checkAnthropic(messages, violations);
  if (provider === 'openai') checkOpenAi(messages, violations);
  return violations.sort((left, right) => left.index - right.index);
}

function checkParts(messages: readonly Message[], out: Violation[]): void {
  messages.forEach((message, index) => {
    if (isEmpty(message))
      out.push({ code: 'empty-message', index, message: `message ${index} has no content` });
    for (const part of message.parts) {
      const misplaced = misplacement(part, message.role);
      if (misplaced === undefined) continue;
      const { code, what, callId } = misplaced;
      out.push({ code, index, callId, message: `${what} ${callId} is in a ${message.role} message` });
    }
  });
}

/** A tool call outside an assistant message or a tool result outside a tool message: what and which call. */
function misplacement(
  part: Part,
  role: Role,
): { code: 'misplaced-call' | 'misplaced-result'; what: string; callId: string } | undefined {
  if (part.type === 'tool-call' && role !== 'assistant')
    return { code: 'misplaced-call', what: 'tool call', callId: part.id };
  if (part.type === 'tool-result' && role !== 'tool')
    return { code: 'misplaced-result', what: 'tool result', callId: part.callId };
  return undefined;
}

function isEmpty(message: Message): boolean {
  if (message.parts.length === 0) return true;
  return message.parts.every((part) => part.type === 'text' && part.text.trim() === '');
}

function checkToolPairs(messages: readonly Message[], out: Violation[]): void {
  const calls = new Map<string, number>();
  const results = new Map<string, number[]>();
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        if (calls.has(part.id)) {
          out.push({
            code: 'duplicate-call-id',
            index,
            callId: part.id,
            message: `tool call id ${part.id} is used twice`,
          });
        } else calls.set(part.id, index);
      } else if (part.type === 'tool-result') {
        const seen = results.get(part.callId) ?? [];
        seen.push(index);
        results.set(part.callId, seen);
      }
    }
  });
  // A result directly follows its call when the run of tool messages it ends starts at most one past the call.
  const toolRuns = runStarts(messages, (message) => message.role === 'tool');
  for (const [callId, callIndex] of calls) {
    const found = results.get(callId) ?? [];
    if (found.length === 0) {
      out.push({
        code: 'missing-result',
        index: callIndex,
        callId,
        message: `tool call ${callId} has no result`,
      });
    } else if (found.length > 1) {
      out.push({
        code: 'duplicate-result',
        index: found[1] as number,
        callId,
        message: `tool call ${callId} has ${found.length} results`,
      });
    }
    for (const resultIndex of found) {
      if (resultIndex <= callIndex) {
        out.push({
          code: 'result-before-call',
          index: resultIndex,
          callId,
          message: `the result of ${callId} comes before its call`,
        });
      } else if ((toolRuns[resultIndex] as number) > callIndex + 1) {
        out.push({
          code: 'result-not-adjacent',
          index: resultIndex,
          callId,
          message: `the result of ${callId} does not directly follow the message that made the call`,
        });
      }
    }
  }
  for (const [callId, found] of results) {
    if (calls.has(callId)) continue;
    for (const index of found) {
      out.push({
        code: 'orphan-result',
        index,
        callId,
        message: `tool result ${callId} answers no tool call`,
      });
    }
  }
}

/** The role a message has on Anthropic's wire, where tool results travel in user messages. */
function anthropicRole(message: Message): 'system' | 'user' | 'assistant' {
  return message.role === 'tool' ? 'user' : message.role;
}

function checkAnthropic(messages: readonly Message[], out: Violation[]): void {
  let seenConversation = false;
  let previous: { role: 'user' | 'assistant'; tool: boolean } | undefined;
  messages.forEach((message, index) => {
    const role = anthropicRole(message);
    if (role === 'system') {
      if (seenConversation) {
        out.push({
          code: 'system-not-first',
          index,
          message: `system message ${index} comes after the conversation started`,
        });
      }
      return;
    }
    if (!seenConversation && role !== 'user') {
      out.push({
        code: 'first-not-user',
        index,
        message: 'the first message after the system prompt must be a user message',
      });
    }
    seenConversation = true;
    if (message.role === 'assistant') checkReasoningFirst(message, index, out);
    const tool = message.role === 'tool';
    // A run of tool messages and the user message right after it are sent as one user message.
    const merges = previous?.role === 'user' && role === 'user' && previous.tool;
    if (previous !== undefined && previous.role === role && !merges) {
      out.push({
        code: 'alternation',
        index,
        message: `messages ${index - 1} and ${index} are both ${role} messages`,
      });
    }
    previous = { role, tool };
  });
}

/**
 * An assistant message that carries thinking must start with it: reasoning after text or a tool call is
 * rejected. Blank text (which a session log may write between blocks) does not count.
 */
function checkReasoningFirst(message: Message, index: number, out: Violation[]): void {
  let seenContent = false;
  for (const part of message.parts) {
    if (part.type === 'reasoning') {
      if (seenContent) {
        out.push({
          code: 'reasoning-not-first',
          index,
          message: `assistant message ${index} has thinking after other content; thinking must come first`,
        });
        return;
      }
    } else if (part.type !== 'text' || part.text.trim() !== '') seenContent = true;
  }
}

function checkOpenAi(messages: readonly Message[], out: Violation[]): void {
  const firstConversation = messages.findIndex((message) => message.role !== 'system');
  const first = messages[firstConversation];
  if (first !== undefined && first.role === 'tool') {
    out.push({
      code: 'first-not-user',
      index: firstConversation,
      message: 'a tool message cannot open the conversation',
    });
  }
}
