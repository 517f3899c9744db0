import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getCodec } from '../codecs/registry.js';
import { isJsonObject, type JsonValue } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';

/** One ShareGPT turn as Hermes writes it. */
export interface ShareGptTurn {
  readonly from: string;
  readonly value: string;
}

/** A finished run to save: its turns (ShareGPT turns, or a transcript in condense's model) and how it ended. */
export interface TrajectoryRecord {
  /** ShareGPT turns, or a transcript (encoded as Hermes turns: `<think>`, `<tool_call>`, `<tool_response>`). */
  readonly conversations: readonly ShareGptTurn[] | Transcript;
  /** Model that ran the agent. */
  readonly model: string;
  /** True for a run that finished its task: it goes to the completed file, else to the failed one. */
  readonly completed: boolean;
  /** ISO time of the run. @default the injected clock's now */
  readonly timestamp?: string;
}

/** Options of {@link writeTrajectory}. */
export interface WriteTrajectoryOptions {
  /** Directory of the files. @default the current directory */
  readonly dir?: string;
  /** @default 'trajectory_samples.jsonl' */
  readonly completedFile?: string;
  /** @default 'failed_trajectories.jsonl' */
  readonly failedFile?: string;
  /** Clock for the default timestamp, in epoch milliseconds. @default Date.now */
  readonly now?: () => number;
  /** Told about a write that failed (the call itself never throws). @default a process warning */
  readonly onError?: (error: Error, path: string) => void;
}

/** What {@link writeTrajectory} did. */
export type WriteTrajectoryResult =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly path: string; readonly error: Error };

/** Hermes' agents mark reasoning with `<REASONING_SCRATCHPAD>`; datasets use `<think>`. */
function thinkTags(turn: ShareGptTurn): ShareGptTurn {
  if (!turn.value.includes('REASONING_SCRATCHPAD>')) return turn;
  return {
    ...turn,
    value: turn.value
      .replaceAll('<REASONING_SCRATCHPAD>', '<think>')
      .replaceAll('</REASONING_SCRATCHPAD>', '</think>'),
  };
}

function turnsOf(conversations: TrajectoryRecord['conversations']): JsonValue {
  if (Array.isArray(conversations))
    return (conversations as readonly ShareGptTurn[]).map(thinkTags) as unknown as JsonValue;
  const wire = getCodec('sharegpt').encode({ messages: (conversations as Transcript).messages });
  return isJsonObject(wire) ? (wire['conversations'] ?? []) : [];
}

function warn(error: Error, path: string): void {
  process.emitWarning(`could not save the trajectory to ${path}: ${error.message}`, 'CondenseWarning');
}

/**
 * Appends one `{conversations, timestamp, model, completed}` line to the completed or the failed trajectory file
 * (Hermes' layout, so its trajectory compressor and condense's read the result). Non-ASCII text is written as
 * is (UTF-8), never `\u`-escaped. One `appendFile` per record, so concurrent writers do not interleave lines.
 * Never throws: a failed write is reported through `onError` and in the result, and the agent carries on.
 */
export async function writeTrajectory(
  record: TrajectoryRecord,
  options: WriteTrajectoryOptions = {},
): Promise<WriteTrajectoryResult> {
  const dir = options.dir ?? '.';
  const name = record.completed
    ? (options.completedFile ?? 'trajectory_samples.jsonl')
    : (options.failedFile ?? 'failed_trajectories.jsonl');
  const path = join(dir, name);
  try {
    const line = JSON.stringify({
      conversations: turnsOf(record.conversations),
      timestamp: record.timestamp ?? new Date((options.now ?? Date.now)()).toISOString(),
      model: record.model,
      completed: record.completed,
    });
    await mkdir(dir, { recursive: true });
    await appendFile(path, `${line}\n`, 'utf8');
    return { ok: true, path };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    (options.onError ?? warn)(failure, path);
    return { ok: false, path, error: failure };
  }
}
