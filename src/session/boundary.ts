import { isJsonObject, type JsonObject, stringOf } from '../model/json.js';

/** A preserved run named by its ends (Claude Code `preservedSegment`): walked from tail back to head. */
export interface SegmentEnds {
  readonly head: string;
  readonly tail: string;
}

/** What a compaction boundary record says, in the same terms for every format. */
export interface BoundaryInfo {
  /** `compact_boundary` (Claude Code) or `compaction` (condense). */
  readonly kind: string;
  readonly trigger: string | undefined;
  readonly preTokens: number | undefined;
  readonly metadata: JsonObject | undefined;
  readonly timestamp: string | undefined;
  /** The checkpoint message (Claude Code: the compact summary; its `anchorUuid` when given). */
  readonly anchor: string | undefined;
  /** Messages kept verbatim before the checkpoint, in order. */
  readonly before: readonly string[];
  /** Messages kept verbatim after the checkpoint: listed uuids, or a segment to walk. */
  readonly after: readonly string[] | SegmentEnds;
}

/** Reads a parsed boundary record of either format. Never throws: missing fields stay empty. */
export function boundaryInfo(record: unknown): BoundaryInfo {
  const value: JsonObject = isJsonObject(record) ? record : {};
  if (value['type'] === 'compaction') return condenseBoundary(value);
  const metadata = isJsonObject(value['compactMetadata']) ? value['compactMetadata'] : undefined;
  const segment = isJsonObject(metadata?.['preservedSegment']) ? metadata['preservedSegment'] : undefined;
  const kept = isJsonObject(metadata?.['preservedMessages']) ? metadata['preservedMessages'] : undefined;
  const head = stringOf(segment?.['headUuid']);
  const tail = stringOf(segment?.['tailUuid']);
  const after: readonly string[] | SegmentEnds =
    head !== undefined && tail !== undefined ? { head, tail } : stringsOf(kept?.['uuids']);
  return {
    kind: stringOf(value['subtype']) ?? 'compact_boundary',
    trigger: stringOf(metadata?.['trigger']),
    preTokens: numberOf(metadata?.['preTokens']),
    metadata,
    timestamp: stringOf(value['timestamp']),
    anchor: stringOf(segment?.['anchorUuid']) ?? stringOf(kept?.['anchorUuid']),
    before: [],
    after,
  };
}

function condenseBoundary(value: JsonObject): BoundaryInfo {
  const metadata = isJsonObject(value['metadata']) ? value['metadata'] : undefined;
  const preserved = isJsonObject(value['preserved']) ? value['preserved'] : undefined;
  return {
    kind: 'compaction',
    trigger: stringOf(metadata?.['trigger']),
    preTokens: numberOf(metadata?.['preTokens']),
    metadata,
    timestamp: stringOf(value['timestamp']),
    anchor: stringOf(value['anchorUuid']),
    before: stringsOf(preserved?.['head']),
    after: stringsOf(preserved?.['tail']),
  };
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
