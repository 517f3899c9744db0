import { Buffer } from 'node:buffer';
import { type ByteSource, bufferSource } from '../io/byte-source.js';
import { flatMembers, NOT_FOUND, readFlatMembers } from '../io/jsonl-members.js';
import {
  isObjectSpan,
  type JsonlLines,
  keyPattern,
  parseSpan,
  probeMiddle,
  readScalar,
  type ScalarRead,
  UNCERTAIN,
} from '../io/jsonl-scan.js';
import type { SessionDialect } from './dialect.js';
import { agreesWith, applyValue, fieldsOfValue, type LineSkeleton, UNPARSED } from './skeleton.js';

const TYPE = keyPattern('type');
const UUID = keyPattern('uuid');
const PARENT = keyPattern('parentUuid');
const SIDECHAIN = keyPattern('isSidechain');

/** The lines of a session file with their skeletons, and what parsing them cost so far. */
export interface ScannedSession {
  /** The file's bytes, read back for the lines parsed after the scan. */
  readonly source: ByteSource;
  readonly lines: JsonlLines;
  readonly dialect: SessionDialect;
  readonly skeletons: readonly LineSkeleton[];
  parsedLines: number;
  parsedBytes: number;
}

function blankSkeleton(lines: JsonlLines, index: number): LineSkeleton {
  return lineSkeleton(
    index,
    lines.numbers[index] as number,
    lines.starts[index] as number,
    lines.ends[index] as number,
  );
}

/** The skeleton of a line before anything is known of it. */
export function lineSkeleton(index: number, line: number, start: number, end: number): LineSkeleton {
  return {
    index,
    line,
    start,
    end,
    readable: true,
    type: undefined,
    uuid: undefined,
    parent: undefined,
    sidechain: false,
    logicalParent: undefined,
    value: UNPARSED,
  };
}

/** Parses one line into its skeleton (counted in the session's parse cost). */
export function parseSkeleton(session: ScannedSession, skeleton: LineSkeleton): void {
  const bytes = session.source.read(skeleton.start, skeleton.end);
  applyValue(skeleton, parseSpan(bytes, 0, bytes.length), session.dialect);
  session.parsedLines++;
  session.parsedBytes += skeleton.end - skeleton.start;
}

/** Skeletons of every line by parsing every line: the baseline the pre-filter must agree with. */
export function scanByParsing(buf: Buffer, lines: JsonlLines, dialect: SessionDialect): ScannedSession {
  return scanLines(buf, lines, dialect, () => false);
}

/**
 * Skeletons of every line from bytes: the top-level `type`, `uuid`, `parentUuid` and `isSidechain` of each line
 * are read by bounded byte searches, and a line is parsed only when the bytes cannot decide, when it is a root
 * (compaction boundaries carry their metadata), a side record the loader always reads (titles, last prompt), or
 * the last line (a crash leaves it truncated).
 */
export function scanFromBytes(buf: Buffer, lines: JsonlLines, dialect: SessionDialect): ScannedSession {
  return scanLines(
    buf,
    lines,
    dialect,
    (skeleton, last) => !last && probeSkeleton(buf, skeleton.start, skeleton.end, skeleton, dialect),
  );
}

/** One skeleton per line: filled by `probe` when it can, else by parsing the line. */
function scanLines(
  buf: Buffer,
  lines: JsonlLines,
  dialect: SessionDialect,
  probe: (skeleton: LineSkeleton, last: boolean) => boolean,
): ScannedSession {
  const skeletons: LineSkeleton[] = [];
  const session: ScannedSession = {
    source: bufferSource(buf),
    lines,
    dialect,
    skeletons,
    parsedLines: 0,
    parsedBytes: 0,
  };
  for (let index = 0; index < lines.count; index++) {
    const skeleton = blankSkeleton(lines, index);
    skeletons.push(skeleton);
    if (!probe(skeleton, index === lines.count - 1)) parseSkeleton(session, skeleton);
  }
  return session;
}

/** The members the pre-filter reads, in the order of {@link FIELD}. */
const MEMBER_KEYS = ['type', 'parentUuid', 'uuid', 'isSidechain'].map((key) => Buffer.from(key, 'utf8'));
const PATTERNS = [TYPE, PARENT, UUID, SIDECHAIN];
const FIELD = { type: 0, parent: 1, uuid: 2, sidechain: 3 } as const;
const members = flatMembers(MEMBER_KEYS.length);

/**
 * Fills a skeleton from bytes; false when the line must be parsed instead. The flat ends of the line are read
 * exactly; a member hidden between nested values is searched for, and trusted only when it occurs once and the
 * record type always carries it.
 */
export function probeSkeleton(
  buf: Buffer,
  start: number,
  end: number,
  skeleton: LineSkeleton,
  dialect: SessionDialect,
): boolean {
  if (!isObjectSpan(buf, start, end)) return false;
  readFlatMembers(buf, start, end, MEMBER_KEYS, members);
  if (!members.valid) return false;
  const type = member(buf, FIELD.type, false);
  if (type === UNCERTAIN) return false;
  const typeName = typeof type === 'string' ? type : undefined;
  if (typeName !== undefined && dialect.sideTypes.has(typeName)) return false;
  const trusted = typeName !== undefined && dialect.chainTypes.has(typeName);
  const parent = member(buf, FIELD.parent, trusted);
  if (parent === UNCERTAIN || typeof parent === 'boolean') return false;
  const uuid = member(buf, FIELD.uuid, trusted);
  if (uuid === UNCERTAIN) return false;
  // A root with a uuid can start the chain or be a compaction boundary: those are parsed for their metadata.
  if ((parent === null || parent === undefined) && uuid !== undefined) return false;
  let sidechain = false;
  if (dialect.sidechains) {
    const flag = member(buf, FIELD.sidechain, trusted);
    if (flag === UNCERTAIN) return false;
    sidechain = flag === true;
  }
  skeleton.type = typeName;
  skeleton.uuid = typeof uuid === 'string' ? uuid : undefined;
  skeleton.parent = parent === undefined ? undefined : parent;
  skeleton.sidechain = sidechain;
  return true;
}

/** A member's value from the flat ends, else from a search of the middle. */
function member(buf: Buffer, field: number, trusted: boolean): ScalarRead {
  const flat = members.values[field];
  if (flat !== NOT_FOUND) return flat as ScalarRead;
  const { middleStart, middleEnd } = members;
  if (middleStart >= middleEnd) return undefined;
  const at = probeMiddle(buf, middleStart, middleEnd, PATTERNS[field] as Buffer, trusted);
  if (at === UNCERTAIN) return UNCERTAIN;
  if (at === -1) return undefined;
  return readScalar(buf, at, middleEnd);
}

/**
 * Parses the given lines where not parsed yet and checks that their bytes told the truth. False when a line read
 * from bytes disagrees with its parsed value: the caller then falls back to parsing everything.
 */
export function parseAndVerify(session: ScannedSession, indexes: Iterable<number>): boolean {
  let agreed = true;
  for (const index of indexes) {
    const skeleton = session.skeletons[index] as LineSkeleton;
    if (skeleton.value !== UNPARSED || !skeleton.readable) continue;
    const bytes = session.source.read(skeleton.start, skeleton.end);
    const parsed = parseSpan(bytes, 0, bytes.length);
    session.parsedLines++;
    session.parsedBytes += skeleton.end - skeleton.start;
    if (!parsed.ok || !agreesWith(skeleton, fieldsOfValue(parsed.value, session.dialect))) agreed = false;
    else skeleton.value = parsed.value;
  }
  return agreed;
}

/**
 * True when `uuid` appears in the file only as the parent of other records: a link the pre-filter found
 * missing really is missing. A mention anywhere else may be the record itself, misread from bytes.
 */
export function onlyReferencedAsParent(session: ScannedSession, uuid: string): boolean {
  const needle = Buffer.from(JSON.stringify(uuid), 'utf8');
  const { lines, skeletons } = session;
  let only = true;
  session.source.search(needle, (at) => {
    const skeleton = skeletons[lineAt(lines.starts, at)];
    only = skeleton !== undefined && (skeleton.parent === uuid || skeleton.logicalParent === uuid);
    return only;
  });
  return only;
}

/** Index of the line holding byte `offset` (the last line starting at or before it). */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
