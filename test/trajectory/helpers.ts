import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { assistantMessage, systemMessage, toolCall, toolResult, userMessage } from '../../src/testing.js';
import { buildTokenCounter } from '../../src/tokens/build-token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

/** One token per character and no framing: token arithmetic in tests is plain character arithmetic. */
export function charCounter(): TokenCounter {
  return buildTokenCounter(
    { name: 'chars', exact: true, countText: (text) => text.length },
    { messageOverhead: 0, toolCallOverhead: 0, toolResultOverhead: 0 },
  );
}

/** `length` characters of readable filler, distinct per `tag`. */
export function filler(length: number, tag = 'x'): string {
  const unit = `${tag} lorem ipsum dolor sit amet `;
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Options of {@link agentRun}. */
export interface AgentRunOptions {
  /** Tool steps (assistant call + tool result). @default 10 */
  readonly steps?: number;
  /** Characters of each tool output. @default 400 */
  readonly output?: number;
  /** Tool name of step i. @default 'run_shell' */
  readonly tool?: (step: number) => string;
  /** Text of the first user turn. */
  readonly task?: string;
  /** Prefix of the filler in tool outputs, to tell runs apart by their middle turns. @default '' */
  readonly label?: string;
  /** Extra user turns: step index → text, inserted before that step. */
  readonly interjections?: Readonly<Record<number, string>>;
}

/**
 * A finished agent run: system, task, then `steps` × (assistant tool call, tool output), then a final answer.
 * Message i of a run with no interjections: 0 system, 1 user, 2 + 2k assistant, 3 + 2k tool, last: assistant.
 */
export function agentRun(options: AgentRunOptions = {}): Transcript {
  const steps = options.steps ?? 10;
  const messages: Message[] = [
    systemMessage('You are a careful agent.'),
    userMessage(options.task ?? 'Fix the failing build in /srv/app.'),
  ];
  for (let step = 0; step < steps; step++) {
    const note = options.interjections?.[step];
    if (note !== undefined) messages.push(userMessage(note));
    const call = toolCall(
      options.tool?.(step) ?? 'run_shell',
      { command: `step ${step} /srv/app/file${step}.ts` },
      `c${step}`,
    );
    messages.push(assistantMessage(`Step ${step}.`, call));
    messages.push(toolResult(call, filler(options.output ?? 400, `${options.label ?? ''}s${step}`)));
  }
  messages.push(assistantMessage('Done: the build passes.'));
  return { messages };
}

/** True when every tool message answers calls of the assistant message right before its run of tool messages. */
export function toolPairsIntact(messages: readonly Message[]): boolean {
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      open = new Set(message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])));
      continue;
    }
    if (message.role !== 'tool') {
      if (open.size > 0) return false;
      continue;
    }
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      if (!open.delete(part.callId)) return false;
    }
  }
  return open.size === 0;
}
