import type { JsonObject } from '../../model/json.js';
import { toolResultText } from '../../model/message-helpers.js';
import type { ToolCallPart, ToolResultPart } from '../../model/part.js';
import { describeCall } from '../../transforms/digest-kinds.js';
import { clearErrorLine, exitStatus } from '../../transforms/output-facts.js';
import { parseToolArguments } from '../../transforms/tool-arguments.js';
import { type ToolKind, toolKindOf } from '../../transforms/tool-kind.js';

/** What a tool call did, as far as rule 1 needs to know. */
export interface ToolOutcome {
  readonly kind: ToolKind;
  readonly args: JsonObject | undefined;
  readonly text: string;
  readonly exit: number | undefined;
  /** Declared an error, exited non-zero, or (for tools whose output is not file content) opens with an error. */
  readonly failed: boolean;
  readonly images: number;
}

// Outputs of these kinds are file or listing content: an error word on their first line is data, not a failure.
const CONTENT_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'glob']);

/** Classifies a call and its result: which kind of tool, and whether the call failed. */
export function toolOutcome(call: ToolCallPart, result: ToolResultPart): ToolOutcome {
  const args = parseToolArguments(call.arguments);
  const kind = toolKindOf(call.name, args);
  const text = toolResultText(result.content);
  const exit = kind === 'shell' || kind === 'unknown' ? exitStatus(text) : undefined;
  const failed =
    result.isError === true ||
    (exit !== undefined && exit !== 0) ||
    (!CONTENT_KINDS.has(kind) && clearErrorLine(text) !== undefined);
  const images = result.content.filter((part) => part.type === 'image').length;
  return { kind, args, text, exit, failed, images };
}

const ARROW = ' → ';

/**
 * What a succeeded call was and what came back, on one line: the tool name, its salient arguments (command,
 * path, pattern, URL, query…) and the outcome (`ok` or the exit status, then lines, matches, size), as the
 * digests of the compressor describe them. Line breaks inside long commands become ` ⏎ `.
 */
export function describeOutcome(call: ToolCallPart, outcome: ToolOutcome): string {
  const name = call.name === '' ? 'tool' : call.name;
  const text = describeCall(outcome.kind, { name, ...outcome }).replace(/\r?\n|\r/g, ' ⏎ ');
  const at = text.lastIndexOf(ARROW);
  if (at === -1) return text;
  const rest = text.slice(at + ARROW.length);
  if (rest.startsWith('exit ')) return text;
  const status = rest.startsWith('done') ? `ok${rest.slice('done'.length)}` : `ok, ${rest}`;
  return `${text.slice(0, at)}${ARROW}${status}`;
}
