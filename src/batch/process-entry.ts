import { getCodec } from '../codecs/registry.js';
import { isCondenseError } from '../errors/condense-error.js';
import { compressTrajectory } from '../trajectory/compress-trajectory.js';
import { previewTrajectory } from '../trajectory/preview-trajectory.js';
import { encodeTrajectoryEntry } from '../trajectory/trajectory-entry.js';
import { toCompressionMetricsJson } from '../trajectory/trajectory-metrics.js';
import type { EntryJob, EntryResult, TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';

/**
 * Processes one entry end to end: parse, decode with the file's codec, compress (or, in a dry run, only plan),
 * encode in the same format with `compression_metrics` added to compressed entries. An entry nothing was done
 * to is written back with its original bytes. Never rejects: a line that is not JSON comes back `invalid`, an
 * entry the codec cannot read as a trajectory `passthrough`, any failure `failed` (an abort: `timed-out`), and
 * all of them carry the original text.
 */
export async function processEntry(
  job: EntryJob,
  runtime: TrajectoryRuntime,
  config: TrajectoryJobConfig,
  signal?: AbortSignal,
): Promise<EntryResult> {
  let value: unknown;
  try {
    value = JSON.parse(job.text);
  } catch (error) {
    return { outcome: 'invalid', text: job.text, message: `not valid JSON (${(error as Error).message})` };
  }
  try {
    const decoded = getCodec(job.format).decode(value);
    const shapeError = decoded.issues.find((issue) => issue.severity === 'error' && issue.path.length === 0);
    if (shapeError !== undefined || decoded.value.messages.length === 0) {
      return {
        outcome: 'passthrough',
        text: job.text,
        message: shapeError?.message ?? 'the entry holds no turns',
      };
    }
    if (config.dryRun === true) {
      const preview = previewTrajectory(decoded.value, { ...config.settings, counter: runtime.counter });
      return { outcome: preview.outcome, text: job.text, metrics: preview.metrics };
    }
    const result = await compressTrajectory(decoded.value, {
      ...config.settings,
      counter: runtime.counter,
      summarizer: runtime.chain,
      ...(signal === undefined ? {} : { signal }),
    });
    const errors = result.summaryErrors.length === 0 ? {} : { summaryErrors: result.summaryErrors };
    if (result.transcript === decoded.value && result.annotations.length === 0) {
      return { outcome: result.outcome, text: job.text, metrics: result.metrics, ...errors };
    }
    const withMetrics = result.metrics.wasCompressed && config.perTrajectoryMetrics !== false;
    const wire = encodeTrajectoryEntry(result.transcript, job.format, {
      ...(withMetrics ? { metrics: toCompressionMetricsJson(result.metrics) } : {}),
      annotations: result.annotations,
    });
    return { outcome: result.outcome, text: JSON.stringify(wire), metrics: result.metrics, ...errors };
  } catch (error) {
    const aborted = (isCondenseError(error) && error.code === 'ABORTED') || signal?.aborted === true;
    return {
      outcome: aborted ? 'timed-out' : 'failed',
      text: job.text,
      message: isCondenseError(error) ? error.describe() : (error as Error).message,
    };
  }
}
