import type { Part, ToolResultContentPart } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import type { CodecCapabilities } from '../codec.js';
import { wrapsArguments } from '../portable/raw-arguments.js';
import { planToolIds } from '../portable/tool-ids.js';

/**
 * What a conversion could not carry as it was. `dropped` kinds are gone from the output (a placeholder may stand
 * in); `changed` kinds are carried in another form the target can express.
 */
export type LossKind =
  | 'reasoning-signature'
  | 'encrypted-reasoning'
  | 'image'
  | 'tool-result-image'
  | 'opaque-part'
  | 'tool-call-id'
  | 'system-prompt'
  | 'source-field'
  | 'reasoning-as-text'
  | 'tool-error-as-text'
  | 'tool-id-rewritten'
  | 'system-prompt-moved'
  | 'turn-added'
  | 'arguments-wrapped';

/** One kind of loss with how often it happened. */
export interface Loss {
  readonly kind: LossKind;
  readonly effect: 'dropped' | 'changed';
  readonly count: number;
  /** What exactly: the opaque part kind, the source field name, or a phrase for the kind. */
  readonly what: string;
}

const DESCRIPTIONS: Readonly<Record<LossKind, { effect: Loss['effect']; what: string }>> = {
  'reasoning-signature': { effect: 'dropped', what: 'reasoning signature' },
  'encrypted-reasoning': { effect: 'dropped', what: 'encrypted reasoning' },
  image: { effect: 'dropped', what: 'image (placeholder text kept)' },
  'tool-result-image': { effect: 'dropped', what: 'image in a tool result (placeholder text kept)' },
  'opaque-part': { effect: 'dropped', what: 'part' },
  'tool-call-id': { effect: 'dropped', what: 'tool call id (results paired by position)' },
  'system-prompt': { effect: 'dropped', what: 'system prompt the model is not sent (kept as a record)' },
  'source-field': { effect: 'dropped', what: 'field' },
  'reasoning-as-text': { effect: 'changed', what: 'reasoning written as <think> text' },
  'tool-error-as-text': { effect: 'changed', what: 'tool error flag written as "[tool error]" text' },
  'tool-id-rewritten': { effect: 'changed', what: 'tool call id rewritten to one the provider accepts' },
  'system-prompt-moved': { effect: 'changed', what: 'system message after the start sent as user text' },
  'turn-added': { effect: 'changed', what: 'opening user turn added (the provider requires one)' },
  'arguments-wrapped': {
    effect: 'changed',
    what: 'tool arguments that are not a JSON object wrapped as {"_raw_arguments": text}',
  },
};

/** The target a loss report is computed for: its capabilities and, when known, its format name. */
export interface LossTarget {
  readonly capabilities: CodecCapabilities;
}

/**
 * Everything converting `source` to a format with `target`'s capabilities cannot carry as it is, per kind with a
 * count: a pure function of the source transcript and the target's capabilities (plus `sourceFields`, the
 * envelope and dialect fields the source codec reports, when the conversion leaves the source's dialect). Every
 * output path (convert, export, compaction into another format) reports with it, and a corpus suite checks the
 * codecs do what their capabilities say.
 */
export function conversionLosses(
  source: Transcript,
  target: LossTarget,
  sourceFields: Readonly<Record<string, number>> = {},
): Loss[] {
  const caps = target.capabilities;
  const counts = new Map<string, { kind: LossKind; what?: string; count: number }>();
  const add = (kind: LossKind, what?: string): void => {
    const key = `${kind}|${what ?? ''}`;
    const found = counts.get(key);
    if (found === undefined) counts.set(key, { kind, ...(what === undefined ? {} : { what }), count: 1 });
    else found.count++;
  };
  const visit = (part: Part | ToolResultContentPart, inResult: boolean): void => {
    switch (part.type) {
      case 'reasoning':
        reasoningLoss(part, caps, add);
        return;
      case 'image':
        if (inResult ? !caps.toolResultImages : !caps.images) add(inResult ? 'tool-result-image' : 'image');
        return;
      case 'tool-call':
        if (!caps.toolCallIds) add('tool-call-id');
        if (caps.objectArguments === true && wrapsArguments(part.arguments)) add('arguments-wrapped');
        return;
      case 'tool-result':
        if (part.isError === true && !caps.toolErrors) add('tool-error-as-text');
        for (const item of part.content) visit(item, true);
        return;
      case 'opaque':
        if (!caps.opaqueKinds.has(part.kind)) add('opaque-part', part.kind);
        return;
      case 'text':
        return;
    }
  };
  let started = false;
  for (const message of source.messages) {
    if (message.role === 'system') {
      if (caps.systemPrompt === 'none') add('system-prompt');
      else if (caps.systemPrompt === 'top-level' && started) add('system-prompt-moved');
    } else {
      if (!started && caps.strictAlternation && message.role === 'assistant') add('turn-added');
      started = true;
    }
    for (const part of message.parts) visit(part, false);
  }
  if (caps.toolIdPattern !== undefined) {
    const rewritten = planToolIds(source.messages, caps.toolIdPattern).rewrittenCalls;
    for (let at = 0; at < rewritten; at++) add('tool-id-rewritten');
  }
  const out: Loss[] = [...counts.values()].map(({ kind, what, count }) => ({
    kind,
    effect: DESCRIPTIONS[kind].effect,
    count,
    what: what ?? DESCRIPTIONS[kind].what,
  }));
  for (const [field, count] of Object.entries(sourceFields))
    if (count > 0) out.push({ kind: 'source-field', effect: 'dropped', count, what: field });
  return out;
}

function reasoningLoss(
  part: Extract<Part, { type: 'reasoning' }>,
  caps: CodecCapabilities,
  add: (kind: LossKind) => void,
): void {
  if (part.data !== undefined && !caps.encryptedReasoning) add('encrypted-reasoning');
  if (part.text === '' && part.data !== undefined) return;
  const asText =
    caps.reasoningForm === 'text' || (caps.reasoningForm === 'signed' && part.signature === undefined);
  if (asText) add('reasoning-as-text');
  if (part.signature !== undefined && (asText || !caps.reasoningSignatures)) add('reasoning-signature');
}

/** Total count of dropped and of changed items. */
export function lossTotals(losses: readonly Loss[]): { dropped: number; changed: number } {
  let dropped = 0;
  let changed = 0;
  for (const loss of losses) {
    if (loss.effect === 'dropped') dropped += loss.count;
    else changed += loss.count;
  }
  return { dropped, changed };
}

/** Merges loss lists (of several transcripts) by kind and `what`, in first-seen order. */
export function mergeLosses(lists: readonly (readonly Loss[])[]): Loss[] {
  const merged = new Map<string, Loss>();
  for (const list of lists)
    for (const loss of list) {
      const key = `${loss.kind}|${loss.what}`;
      const found = merged.get(key);
      merged.set(key, found === undefined ? loss : { ...found, count: found.count + loss.count });
    }
  return [...merged.values()];
}

/**
 * The loss report as lines for standard error: one for what was dropped, one for what was carried in another
 * form, each `count what` by kind, most frequent first; source fields grouped on their own line. Empty when
 * nothing was lost.
 */
export function describeLosses(losses: readonly Loss[], target: string): string[] {
  const phrase = (list: readonly Loss[]): string =>
    [...list]
      .sort((left, right) => right.count - left.count)
      .map((loss) => `${loss.count} × ${loss.kind === 'opaque-part' ? `${loss.what} part` : loss.what}`)
      .join(', ');
  const dropped = losses.filter((loss) => loss.effect === 'dropped' && loss.kind !== 'source-field');
  const changed = losses.filter((loss) => loss.effect === 'changed');
  const fields = losses.filter((loss) => loss.kind === 'source-field');
  const lines: string[] = [];
  if (dropped.length > 0) lines.push(`not carried to ${target}: ${phrase(dropped)}`);
  if (changed.length > 0) lines.push(`carried to ${target} in another form: ${phrase(changed)}`);
  if (fields.length > 0) {
    const shown = [...fields].sort((left, right) => right.count - left.count);
    const list = shown.slice(0, 12).map((loss) => `${loss.what} (${loss.count})`);
    if (shown.length > 12) list.push(`… ${shown.length - 12} more (see --json)`);
    lines.push(`source fields not in the ${target} shape, left behind: ${list.join(', ')}`);
  }
  return lines;
}
