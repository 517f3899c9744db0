import type { SummaryRequest, SummaryResult } from '../../summarizer/summarizer.js';

/** What the engine got when it asked for checkpoint text. */
export type SummaryOutcome =
  | { readonly kind: 'summary'; readonly result: SummaryResult; readonly errors: readonly string[] }
  /** Credentials or quota were refused: surface it and leave the transcript unchanged. */
  | { readonly kind: 'abort'; readonly errors: readonly string[] }
  /** Nothing could be made (every summarizer failed or is cooling down). */
  | { readonly kind: 'failed'; readonly errors: readonly string[] };

/** Asks for checkpoint text; the compressor engine wires its summarizer chain into this shape. */
export type SummarizeFunction = (
  request: SummaryRequest,
  signal: AbortSignal | undefined,
) => Promise<SummaryOutcome>;
