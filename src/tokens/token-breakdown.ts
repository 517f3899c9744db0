import { ROLES, type Role } from '../model/role.js';
import type { Transcript } from '../model/transcript.js';
import type { TokenCounter } from './token-counter.js';

/** Token totals of one counter over some transcripts, split by role and by tool. */
export interface TokenBreakdown {
  readonly counter: string;
  readonly exact: boolean;
  /** Sum of the message counts (framing included). */
  readonly total: number;
  readonly byRole: Readonly<Record<Role, number>>;
  /**
   * Tokens of each tool's calls (name, arguments, framing) and results together, heaviest first. A result is
   * attributed to the tool of the call it answers, else to its own `name`, else to `(unknown tool)`.
   */
  readonly byTool: Readonly<Record<string, number>>;
}

/** Name under which results without a known tool are reported. */
export const UNKNOWN_TOOL = '(unknown tool)';

/** Splits the token count of `transcripts` by role and by tool name. Pure; uses the counter's message cache. */
export function tokenBreakdown(transcripts: readonly Transcript[], counter: TokenCounter): TokenBreakdown {
  const byRole = Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
  const byTool = new Map<string, number>();
  let total = 0;
  for (const transcript of transcripts) {
    const callNames = new Map<string, string>();
    for (const message of transcript.messages) {
      for (const part of message.parts) if (part.type === 'tool-call') callNames.set(part.id, part.name);
    }
    for (const message of transcript.messages) {
      const tokens = counter.countMessage(message);
      total += tokens;
      byRole[message.role] += tokens;
      for (const part of message.parts) {
        let tool: string | undefined;
        if (part.type === 'tool-call') tool = part.name;
        else if (part.type === 'tool-result') tool = callNames.get(part.callId) ?? part.name ?? UNKNOWN_TOOL;
        if (tool !== undefined) byTool.set(tool, (byTool.get(tool) ?? 0) + counter.countPart(part));
      }
    }
  }
  const sortedTools = [...byTool].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1));
  return {
    counter: counter.name,
    exact: counter.exact,
    total,
    byRole,
    byTool: Object.fromEntries(sortedTools),
  };
}
