import { decodeClaudeCodeRecords } from '../../../src/codecs/claude-code/index.js';
import type { Message } from '../../../src/model/message.js';
import type { Part } from '../../../src/model/part.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { readCorpusFile } from '../../support/corpus.js';

/** The parsed records of a corpus session file. */
export function corpusRecords(file: string): unknown[] {
  return readCorpusFile(file)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A record as a plain object (tests only look at a few keys). */
export function rec(record: unknown): Record<string, any> {
  return record as Record<string, any>;
}

/** Decodes records in file order, failing loudly if the codec reports an error. */
export function decodeRecords(records: readonly unknown[]): Transcript {
  return decodeClaudeCodeRecords(records).value;
}

/** A part without codec meta, for comparing what a message says. */
export function bare(part: Part): unknown {
  const { meta: _meta, ...rest } = part as Part & { meta?: unknown };
  if (rest.type === 'tool-result') return { ...rest, content: rest.content.map((item) => bare(item)) };
  return rest;
}

/** What a message says: role and parts without meta. */
export function said(message: Message): unknown {
  return { role: message.role, parts: message.parts.map(bare) };
}

/**
 * Walks `parentUuid` (and a boundary's `logicalParentUuid`) from the last user/assistant record to the root and
 * returns the decoded messages the walk
 * reaches, in chain order, plus tool messages whose record hangs off a reached message (parallel results).
 */
export function messagesOnChain(records: readonly unknown[], transcript: Transcript): Set<number> {
  const messageOfUuid = new Map<string, number>();
  transcript.messages.forEach((message, index) => {
    const entries = (message.meta?.codec?.['claude-code']?.['records'] ?? []) as {
      record: { uuid?: string };
    }[];
    for (const entry of entries)
      if (entry.record.uuid !== undefined) messageOfUuid.set(entry.record.uuid, index);
  });
  const byUuid = new Map<string, Record<string, any>>();
  for (const record of records) {
    const uuid = rec(record)['uuid'];
    if (typeof uuid === 'string') byUuid.set(uuid, rec(record));
  }
  const last = [...records].reverse().find((record) => ['user', 'assistant'].includes(rec(record)['type']));
  const reached: number[] = [];
  let current: Record<string, any> | undefined = last === undefined ? undefined : rec(last);
  for (let steps = 0; current !== undefined && steps <= records.length; steps++) {
    const index = messageOfUuid.get(current['uuid']);
    if (index !== undefined) reached.push(index);
    // A compaction boundary is a root that names the record before it in `logicalParentUuid`.
    const parent = current['parentUuid'] ?? current['logicalParentUuid'];
    current = typeof parent === 'string' ? byUuid.get(parent) : undefined;
  }
  // Root first, each message at its first visit: one API response's records can sit around its tool results.
  const chain = [...new Set(reached.reverse())];
  const onChain = new Set(chain);
  transcript.messages.forEach((message, index) => {
    if (message.role !== 'tool' || onChain.has(index)) return;
    const entries = message.meta?.codec?.['claude-code']?.['records'] as {
      record: { parentUuid?: string };
    }[];
    const parent = entries[0]?.record.parentUuid;
    const owner = parent === undefined ? undefined : messageOfUuid.get(parent);
    if (owner !== undefined && onChain.has(owner)) onChain.add(index);
  });
  if (!chain.every((value, index) => index === 0 || (chain[index - 1] as number) < value)) {
    throw new Error(`chain visits messages out of order: ${chain.join(',')}`);
  }
  return onChain;
}
