import { decodeClaudeCodeRecords } from '../codecs/claude-code/index.js';
import { isJsonObject, type JsonObject } from '../model/json.js';
import type { Message, MessageMeta } from '../model/message.js';
import type { Part } from '../model/part.js';
import { isRole } from '../model/role.js';
import type { Transcript } from '../model/transcript.js';
import { recoverParallel } from './recover-parallel.js';
import type { SessionIndex } from './session-index.js';
import type { SessionIssue } from './session-types.js';
import { isMessageLine, type LineSkeleton } from './skeleton.js';

/** The conversation of a chain, the lines it re-attached from side branches, and what decoding reported. */
export interface DecodedChain {
  readonly transcript: Transcript;
  /** Skeleton indexes of off-chain records the transcript uses (parallel tool results). */
  readonly attached: ReadonlySet<number>;
  readonly issues: readonly SessionIssue[];
}

/**
 * Off-chain records that may belong to the chain's responses: Claude Code writes one assistant record per content
 * block and parents each tool result to the record holding its call, so parallel calls form a small tree and a
 * single-parent walk keeps one branch of it (a later block of the response can even hang off an earlier call's
 * result). Candidates are the message records below chain records, reached through anything but a user prompt:
 * a prompt starts a new turn (a rewind), so nothing under it belongs to the chain. `isToolResult` tells tool
 * results from prompts (it may parse the record). Which candidates really belong is decided from their content
 * ({@link recoverParallel}).
 */
export function parallelCandidates(
  index: SessionIndex,
  path: readonly number[],
  isToolResult: (at: number) => boolean,
): number[] {
  if (index.dialect.resultTypes.size === 0) return [];
  const count = index.skeletons.length;
  const visited = new Uint8Array(count);
  let frontier = new Uint8Array(count);
  let frontierSize = 0;
  for (const at of path) {
    visited[at] = 1;
    frontier[at] = 1;
    frontierSize++;
  }
  const out: number[] = [];
  const visit = (at: number, next: Uint8Array): boolean => {
    const skeleton = skeletonAt(index, at);
    if (visited[at] === 1 || index.canonical[at] !== 1) return false;
    visited[at] = 1;
    if (isMessageLine(skeleton, index.dialect)) out.push(at);
    const result = skeleton.type !== undefined && index.dialect.resultTypes.has(skeleton.type);
    if (result && !isToolResult(at)) return false;
    next[at] = 1;
    return true;
  };
  // Level by level, one pass over the parent links per level: the trees are a few levels deep. A deeper one
  // (a long side chain of non-prompt records) switches to a children index, so the cost stays linear.
  for (let level = 0; frontierSize > 0; level++) {
    const next = new Uint8Array(count);
    let nextSize = 0;
    if (level < LEVEL_PASSES) {
      for (let at = 0; at < count; at++) {
        const parent = index.parentAt[at] as number;
        if (parent >= 0 && frontier[parent] === 1 && visit(at, next)) nextSize++;
      }
    } else {
      const children = childrenIndex(index);
      for (let parent = 0; parent < count; parent++) {
        if (frontier[parent] !== 1) continue;
        for (const at of children.get(parent) ?? []) if (visit(at, next)) nextSize++;
      }
    }
    frontier = next;
    frontierSize = nextSize;
  }
  return out.sort((left, right) => left - right);
}

/** Levels of the candidate search done by scanning every line before switching to a children index. */
const LEVEL_PASSES = 8;

const childrenCache = new WeakMap<SessionIndex, Map<number, number[]>>();

function childrenIndex(index: SessionIndex): Map<number, number[]> {
  const cached = childrenCache.get(index);
  if (cached !== undefined) return cached;
  const children = new Map<number, number[]>();
  index.parentAt.forEach((parent, at) => {
    if (parent < 0) return;
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [at]);
    else list.push(at);
  });
  childrenCache.set(index, children);
  return children;
}

/**
 * Decodes a chain of Claude Code records through the claude-code codec, after splicing the chain's parallel
 * siblings back in ({@link recoverParallel}); the codec re-attaches any result still missing by `tool_use_id`.
 */
export function decodeClaudeCodeChain(
  index: SessionIndex,
  path: readonly number[],
  candidates: readonly number[],
): DecodedChain {
  const onPath = new Set(path);
  const recovered = recoverParallel(index, path, candidates);
  const lines = [...new Set([...recovered, ...candidates])]
    .filter((at) => isMessageLine(skeletonAt(index, at), index.dialect) && skeletonAt(index, at).readable)
    .sort((left, right) => left - right);
  const records = lines.map((at) => skeletonAt(index, at).value);
  const chain = recovered.flatMap((at) => {
    const skeleton = skeletonAt(index, at);
    return isMessageLine(skeleton, index.dialect) && skeleton.readable ? [skeleton.uuid as string] : [];
  });
  const decoded = decodeClaudeCodeRecords(records, { chain });
  const attached = new Set<number>();
  for (const message of decoded.value.messages) {
    const entries = message.meta?.codec?.['claude-code']?.['records'];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const at = isJsonObject(entry) && typeof entry['pos'] === 'number' ? lines[entry['pos']] : undefined;
      if (at !== undefined && !onPath.has(at)) attached.add(at);
    }
  }
  const issues = decoded.issues.map((issue): SessionIssue => {
    const first = issue.path[0];
    const at = typeof first === 'number' ? lines[first] : undefined;
    const line = at === undefined ? undefined : skeletonAt(index, at).line;
    return {
      code: issue.code,
      severity: issue.severity,
      message: issue.message,
      ...(line === undefined ? {} : { line }),
    };
  });
  return { transcript: decoded.value, attached, issues };
}

/** Builds the transcript of a condense log chain from its message lines. */
export function decodeCondenseChain(index: SessionIndex, path: readonly number[]): DecodedChain {
  const messages: Message[] = [];
  const issues: SessionIssue[] = [];
  for (const at of path) {
    const skeleton = skeletonAt(index, at);
    if (!isMessageLine(skeleton, index.dialect) || !isJsonObject(skeleton.value)) continue;
    const message = messageOf(skeleton.value['message'], skeleton.uuid as string);
    if (message === undefined) {
      issues.push({
        code: 'invalid-record',
        severity: 'error',
        message: `line ${skeleton.line} holds no readable message (role and parts); it was skipped`,
        line: skeleton.line,
        ...(skeleton.uuid === undefined ? {} : { uuid: skeleton.uuid }),
      });
    } else messages.push(message);
  }
  return { transcript: { messages }, attached: new Set(), issues };
}

const PART_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'tool-call',
  'tool-result',
  'reasoning',
  'opaque',
]);

function messageOf(value: unknown, uuid: string): Message | undefined {
  if (!isJsonObject(value) || !isRole(value['role']) || !Array.isArray(value['parts'])) return undefined;
  const parts = value['parts'];
  if (!parts.every((part) => isJsonObject(part) && PART_TYPES.has(part['type'] as string))) return undefined;
  const meta = isJsonObject(value['meta']) ? metaOf(value['meta']) : undefined;
  return {
    role: value['role'],
    parts: parts as unknown as readonly Part[],
    id: uuid,
    ...(meta === undefined ? {} : { meta }),
  };
}

function metaOf(meta: JsonObject): MessageMeta | undefined {
  const codec = isJsonObject(meta['codec'])
    ? (meta['codec'] as NonNullable<MessageMeta['codec']>)
    : undefined;
  const condense = isJsonObject(meta['condense']) ? meta['condense'] : undefined;
  if (codec === undefined && condense === undefined) return undefined;
  return { ...(codec === undefined ? {} : { codec }), ...(condense === undefined ? {} : { condense }) };
}

function skeletonAt(index: SessionIndex, at: number): LineSkeleton {
  return index.skeletons[at] as LineSkeleton;
}
