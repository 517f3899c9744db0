import type { Transcript } from '../model/transcript.js';
import { isContextOverflow } from './budget-error.js';
import type { CompactionResult, CompressOptions, ContextEngine } from './context-engine.js';

/** A compaction that could not fit the window, as the integrations report it. */
export interface WindowOverflow {
  /** Tokens the smallest compaction still takes. */
  readonly tokens: number;
  /** The window it had to fit. */
  readonly limit: number;
  /** Tokens of the system prompt and latest request, which are always kept. */
  readonly irreducible: number;
}

/**
 * Compacts, and when the engine cannot fit the window (`BUDGET_UNREACHABLE`) takes the smallest result it could
 * make instead, with the overflow described and a note added to its report: an integration sends that and
 * says so (event, header) rather than failing the agent's call, since the provider may have more room than
 * was configured and the original is bigger still.
 */
export async function compactOrSmallest(
  engine: ContextEngine,
  transcript: Transcript,
  options: CompressOptions = {},
): Promise<{ readonly result: CompactionResult; readonly overflow?: WindowOverflow }> {
  try {
    return { result: await engine.compress(transcript, options) };
  } catch (error) {
    if (!isContextOverflow(error)) throw error;
    const { best, tokens, limit, irreducible } = error.details;
    const note = `over the window: the smallest compaction takes ${tokens} of ${limit} tokens (${irreducible} of them the system prompt and latest request)`;
    return {
      result: {
        transcript: best.transcript,
        report: { ...best.report, notes: [...best.report.notes, note] },
      },
      overflow: { tokens, limit, irreducible },
    };
  }
}
