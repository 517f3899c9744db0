import { isJsonObject } from '../model/json.js';
import type { SessionDialect } from './dialect.js';

/** A line not parsed yet. */
export const UNPARSED: unique symbol = Symbol('unparsed');

/**
 * What the chain logic needs of one line: its record type and tree links. Built from the line's bytes (the
 * pre-filter) or from its parsed value; both must agree, which the loader checks on every line it parses.
 */
export interface LineSkeleton {
  /** Position among the file's non-blank lines. */
  readonly index: number;
  /** 1-based line number. */
  readonly line: number;
  readonly start: number;
  readonly end: number;
  /** False when the line is not JSON (its fields are then all empty). */
  readable: boolean;
  type: string | undefined;
  uuid: string | undefined;
  /** `null` for a root, `undefined` when the record has no `parentUuid`. */
  parent: string | null | undefined;
  sidechain: boolean;
  /** Only on roots: a compaction boundary's link to the history before it. */
  logicalParent: string | undefined;
  /** The parsed value, or {@link UNPARSED}. */
  value: unknown;
}

/** The chain fields of a parsed record. */
export interface SkeletonFields {
  readonly type: string | undefined;
  readonly uuid: string | undefined;
  readonly parent: string | null | undefined;
  readonly sidechain: boolean;
  readonly logicalParent: string | undefined;
}

const NO_FIELDS: SkeletonFields = {
  type: undefined,
  uuid: undefined,
  parent: undefined,
  sidechain: false,
  logicalParent: undefined,
};

/** Reads the chain fields of a parsed record, the same way the byte probe reads them. */
export function fieldsOfValue(value: unknown, dialect: SessionDialect): SkeletonFields {
  if (!isJsonObject(value)) return NO_FIELDS;
  const { type, uuid, parentUuid, isSidechain, logicalParentUuid } = value;
  const parent = parentUuid === null ? null : typeof parentUuid === 'string' ? parentUuid : undefined;
  return {
    type: typeof type === 'string' ? type : undefined,
    uuid: typeof uuid === 'string' ? uuid : undefined,
    parent,
    sidechain: dialect.sidechains && isSidechain === true,
    logicalParent:
      (parent === null || parent === undefined) && typeof logicalParentUuid === 'string'
        ? logicalParentUuid
        : undefined,
  };
}

/** Sets a skeleton's fields from its parsed value (or marks it unreadable). */
export function applyValue(
  skeleton: LineSkeleton,
  parsed: { readonly ok: true; readonly value: unknown } | { readonly ok: false },
  dialect: SessionDialect,
): void {
  if (!parsed.ok) {
    Object.assign(skeleton, NO_FIELDS);
    skeleton.readable = false;
    skeleton.value = UNPARSED;
    return;
  }
  Object.assign(skeleton, fieldsOfValue(parsed.value, dialect));
  skeleton.readable = true;
  skeleton.value = parsed.value;
}

/** True when the byte-read fields of a skeleton match what its parsed value says. */
export function agreesWith(skeleton: LineSkeleton, fields: SkeletonFields): boolean {
  return (
    skeleton.type === fields.type &&
    skeleton.uuid === fields.uuid &&
    skeleton.parent === fields.parent &&
    skeleton.sidechain === fields.sidechain
  );
}

/** True when the line holds a record of the conversation (a message type with a uuid). */
export function isMessageLine(skeleton: LineSkeleton, dialect: SessionDialect): boolean {
  return (
    skeleton.uuid !== undefined && skeleton.type !== undefined && dialect.messageTypes.has(skeleton.type)
  );
}

/** True for a root: no parent (`null` or no `parentUuid` key). */
export function isRoot(skeleton: LineSkeleton): boolean {
  return skeleton.parent === null || skeleton.parent === undefined;
}
