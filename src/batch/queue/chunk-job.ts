import { CondenseError } from '../../errors/condense-error.js';
import type { FormatName } from '../../model/format.js';
import { isJsonObject } from '../../model/json.js';
import { settingsFingerprint } from '../resume-state.js';
import type { EntryResult, JobModel, TrajectoryJobConfig } from '../trajectory-job.js';

/**
 * The model as it travels on the queue: never the key. Each worker reads the key from its own environment
 * (`apiKeyEnv`, or the provider's usual variable), so secrets never sit in Redis.
 */
export interface QueueModel extends Omit<JobModel, 'apiKey'> {
  /** Variable the worker reads the key from. @default the provider's usual one */
  readonly apiKeyEnv?: string;
}

/** {@link TrajectoryJobConfig} as it travels on the queue. */
export interface QueueJobConfig extends Omit<TrajectoryJobConfig, 'model'> {
  readonly model?: QueueModel;
}

/** What one queue job carries: a chunk of one file's entries and everything needed to process them. */
export interface ChunkJobData {
  readonly v: 1;
  /** The configuration, encoded by {@link encodeJobConfig} (regular expressions survive). */
  readonly config: string;
  /** Hash of `config` and `timeoutMs`: workers keep one runtime per key. */
  readonly configKey: string;
  /** Time allowed per entry, in milliseconds. */
  readonly timeoutMs: number;
  /** Seconds the worker keeps the result in Redis for a submitter to collect. */
  readonly retentionSeconds: number;
  readonly format: FormatName;
  /** The input file, for messages. */
  readonly file: string;
  readonly entries: readonly { readonly line: number; readonly text: string }[];
}

/** What a worker stores under the job's result key. */
export interface StoredResults {
  readonly v: 1;
  readonly results: readonly EntryResult[];
}

const REGEXP = '$regexp';

/** Encodes a configuration for the queue: JSON, with regular expressions (redaction, policies) kept. */
export function encodeJobConfig(config: QueueJobConfig): string {
  return JSON.stringify(config, (_key, value: unknown) =>
    value instanceof RegExp ? { [REGEXP]: value.source, flags: value.flags } : value,
  );
}

/** The inverse of {@link encodeJobConfig}. */
export function decodeJobConfig(text: string): QueueJobConfig {
  return JSON.parse(text, (_key, value: unknown) => {
    if (isJsonObject(value) && typeof value[REGEXP] === 'string' && Object.keys(value).length === 2) {
      return new RegExp(value[REGEXP], typeof value['flags'] === 'string' ? value['flags'] : '');
    }
    return value;
  }) as QueueJobConfig;
}

/** The key a worker caches its runtime under for this configuration and timeout. */
export function configKeyOf(config: string, timeoutMs: number): string {
  return settingsFingerprint({ config, timeoutMs }).slice(0, 24);
}

/** The Redis key of a job's results (outside BullMQ's own keys, so events never carry them). */
export function resultKey(queueName: string, jobId: string): string {
  return `condense:${queueName}:result:${jobId}`;
}

/** Checks what a job carries; `QUEUE_FAILED` when it is not a condense chunk job. */
export function parseChunkJob(value: unknown): ChunkJobData {
  if (
    !isJsonObject(value) ||
    value['v'] !== 1 ||
    typeof value['config'] !== 'string' ||
    typeof value['configKey'] !== 'string' ||
    typeof value['timeoutMs'] !== 'number' ||
    typeof value['retentionSeconds'] !== 'number' ||
    typeof value['format'] !== 'string' ||
    !Array.isArray(value['entries'])
  ) {
    throw new CondenseError({
      code: 'QUEUE_FAILED',
      message: 'the job is not a condense trajectories job (version 1)',
      hint: 'run the same condense version on the submitting side and on every worker',
    });
  }
  return value as unknown as ChunkJobData;
}

/** Reads stored results for a chunk of `count` entries; undefined when they are damaged or do not fit. */
export function parseStoredResults(text: string, count: number): readonly EntryResult[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isJsonObject(value) || value['v'] !== 1 || !Array.isArray(value['results'])) return undefined;
    const results = value['results'] as unknown[];
    if (results.length !== count) return undefined;
    const fit = results.every(
      (item) => isJsonObject(item) && typeof item['outcome'] === 'string' && typeof item['text'] === 'string',
    );
    return fit ? (results as unknown as EntryResult[]) : undefined;
  } catch {
    return undefined;
  }
}
