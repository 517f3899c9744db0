import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic-write.js';
import { isJsonObject } from '../model/json.js';
import type { AggregateCounts } from '../trajectory/metrics-aggregate.js';
import type { InputFile } from './input-files.js';

/** Name of the state file in the output directory that records finished files. */
export const STATE_FILE = '.condense-trajectories.json';

/** Size, modification time and content hash of an input when its output was finished. */
export interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly sha256: string;
}

/** The record of a finished file: which input, under which settings, with what totals. */
export interface FinishedFile extends FileIdentity {
  readonly input: string;
  /** Hash of every setting that changes the output; a re-run with other settings redoes the file. */
  readonly fingerprint: string;
  readonly finishedAt: string;
  readonly counts: AggregateCounts;
  readonly invalidLines: number;
}

/** What the state file holds. */
export interface ResumeState {
  readonly version: 1;
  readonly files: Readonly<Record<string, FinishedFile>>;
}

/** SHA-256 of bytes, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A stable hash of the settings that shape the output (key order does not matter). */
export function settingsFingerprint(value: unknown): string {
  const canonical = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(canonical);
    if (item instanceof RegExp) return `/${item.source}/${item.flags}`;
    if (typeof item !== 'object' || item === null) return item;
    const entries = Object.entries(item as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, canonical(inner)]));
  };
  return sha256(JSON.stringify(canonical(value)));
}

/** Reads the state file of an output directory; an absent or unreadable one means nothing is finished. */
export async function loadResumeState(outputDir: string): Promise<ResumeState> {
  try {
    const value: unknown = JSON.parse(await readFile(join(outputDir, STATE_FILE), 'utf8'));
    if (isJsonObject(value) && value['version'] === 1 && isJsonObject(value['files'])) {
      return value as unknown as ResumeState;
    }
  } catch {
    // No state yet, or a damaged one: every file is redone.
  }
  return { version: 1, files: {} };
}

/** Writes the state file atomically. */
export async function saveResumeState(outputDir: string, state: ResumeState): Promise<void> {
  await writeFileAtomic(join(outputDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The record of `file` when it is finished: its output exists, the settings fingerprint matches, and the input
 * is the one that was compressed (same size, and same modification time or, failing that, same SHA-256).
 */
export async function finishedRecord(
  state: ResumeState,
  file: InputFile,
  fingerprint: string,
): Promise<FinishedFile | undefined> {
  const record = state.files[file.name];
  if (record === undefined || record.input !== file.input || record.fingerprint !== fingerprint)
    return undefined;
  try {
    await stat(file.output);
    const current = await stat(file.input);
    if (current.size !== record.size) return undefined;
    if (current.mtimeMs === record.mtimeMs) return record;
    return sha256(await readFile(file.input)) === record.sha256 ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Size, modification time and hash of an input whose bytes are already in memory. */
export async function identityOf(path: string, bytes: Uint8Array): Promise<FileIdentity> {
  const info = await stat(path);
  return { size: info.size, mtimeMs: info.mtimeMs, sha256: sha256(bytes) };
}
