import { CondenseError } from '../errors/condense-error.js';
import type { Message } from '../model/message.js';
import { textPart, toolResultText, withParts } from '../model/message-helpers.js';
import type { Role } from '../model/role.js';
import { indexToolCalls } from '../transforms/tool-call-index.js';

/** A rule that marks turns which must stay verbatim (an alert, a ticket, a requirement…). */
export interface AnchorRule {
  /** Only turns of this role match. @default any role */
  readonly role?: Role;
  /** Literal text the turn must contain (case-sensitive). */
  readonly contains?: string;
  /** Regular expression (source) the turn must match. */
  readonly pattern?: string;
  /** Flags of `pattern` (`i`, `m`, `s`, `u`). @default '' */
  readonly flags?: string;
  /** `first`: only the first matching turn is an anchor; `all`: every matching turn. @default 'first' */
  readonly match?: 'first' | 'all';
}

/** Labels added to tool turns by tool name (e.g. MITRE ATT&CK techniques for a threat hunt). */
export interface AnnotationPolicy {
  /** Name of the label in reports and in the output's `turn_annotations`. @default 'annotation' */
  readonly field?: string;
  /** Tool name → label. Names match exactly, then case-insensitively. */
  readonly tools: Readonly<Record<string, string>>;
}

/** A domain policy: what must survive verbatim, what tool turns are tagged with, what summaries stress. */
export interface TrajectoryPolicy {
  /** Shown in reports. */
  readonly name?: string;
  /** Turns kept verbatim besides the protected first and last turns. @default [] */
  readonly anchors?: readonly AnchorRule[];
  readonly annotations?: AnnotationPolicy;
  /** Topic the summary gives most room to (passed to the summarizer as its focus). */
  readonly focus?: string;
}

/** One label put on a tool turn of the output. */
export interface TurnAnnotation {
  /** Index of the turn in the output trajectory. */
  readonly turn: number;
  readonly tool: string;
  readonly field: string;
  readonly label: string;
}

/** The searchable text of a turn: its text, and the text of the tool results it carries. */
function turnText(message: Message): string {
  const pieces: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') pieces.push(part.text);
    else if (part.type === 'tool-result') pieces.push(toolResultText(part.content));
  }
  return pieces.join('\n');
}

function compile(rule: AnchorRule, index: number): (text: string) => boolean {
  const tests: ((text: string) => boolean)[] = [];
  if (rule.contains !== undefined) {
    const needle = rule.contains;
    tests.push((text) => text.includes(needle));
  }
  if (rule.pattern !== undefined) {
    let regex: RegExp;
    try {
      regex = new RegExp(rule.pattern, (rule.flags ?? '').replace(/[gy]/g, ''));
    } catch (error) {
      throw new CondenseError({
        code: 'INVALID_OPTIONS',
        message: `anchor ${index + 1}: "${rule.pattern}" is not a valid regular expression (${(error as Error).message})`,
        hint: 'fix the pattern in the policy, or use contains for literal text',
      });
    }
    tests.push((text) => regex.test(text));
  }
  if (tests.length === 0) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `anchor ${index + 1} has neither contains nor pattern`,
      hint: 'give each anchor the text (contains) or the regular expression (pattern) it matches',
    });
  }
  return (text) => tests.every((test) => test(text));
}

/** Indices of the turns the anchor rules select, sorted and without repeats. */
export function findAnchors(messages: readonly Message[], rules: readonly AnchorRule[] = []): number[] {
  const found = new Set<number>();
  rules.forEach((rule, ruleIndex) => {
    const matches = compile(rule, ruleIndex);
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index] as Message;
      if (rule.role !== undefined && message.role !== rule.role) continue;
      if (!matches(turnText(message))) continue;
      found.add(index);
      if ((rule.match ?? 'first') === 'first') break;
    }
  });
  return [...found].sort((left, right) => left - right);
}

/** The label of a tool name under the policy: exact name first, then a case-insensitive match. */
function labelFor(policy: AnnotationPolicy, tool: string): string | undefined {
  const exact = policy.tools[tool];
  if (exact !== undefined) return exact;
  const lower = tool.toLowerCase();
  for (const [name, label] of Object.entries(policy.tools)) if (name.toLowerCase() === lower) return label;
  return undefined;
}

/** The labels of every tool turn whose results answer a tool named in the policy, one per result. */
export function annotateTurns(
  messages: readonly Message[],
  policy: AnnotationPolicy | undefined,
): TurnAnnotation[] {
  if (policy === undefined) return [];
  const field = policy.field ?? 'annotation';
  const calls = indexToolCalls(messages);
  const out: TurnAnnotation[] = [];
  messages.forEach((message, turn) => {
    if (message.role !== 'tool') return;
    message.parts.forEach((part, partIndex) => {
      if (part.type !== 'tool-result') return;
      const tool = calls.callFor(turn, partIndex)?.name ?? part.name;
      if (tool === undefined) return;
      const label = labelFor(policy, tool);
      if (label !== undefined) out.push({ turn, tool, field, label });
    });
  });
  return out;
}

/**
 * Copies of the turns with each annotated tool turn carrying its labels as a note (`[field: label]`), so the
 * summarizer sees them and can tag what it reports. Only for the summarizer's input: output turns stay verbatim.
 */
export function withAnnotationNotes(
  messages: readonly Message[],
  policy: AnnotationPolicy | undefined,
): readonly Message[] {
  const annotations = annotateTurns(messages, policy);
  if (annotations.length === 0) return messages;
  const byTurn = new Map<number, string[]>();
  for (const note of annotations) {
    const list = byTurn.get(note.turn) ?? [];
    list.push(`[${note.field}: ${note.label}]`);
    byTurn.set(note.turn, list);
  }
  return messages.map((message, index) => {
    const notes = byTurn.get(index);
    return notes === undefined ? message : withParts(message, [...message.parts, textPart(notes.join(' '))]);
  });
}
