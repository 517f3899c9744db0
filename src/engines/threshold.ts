/** Inputs of {@link computeThreshold}. */
export interface ThresholdInputs {
  readonly contextLength: number;
  /** Share of the effective window at which compaction triggers. */
  readonly thresholdPercent: number;
  /** Output reservation subtracted from the window (ignored unless positive). */
  readonly maxOutputTokens?: number;
  /** Windows smaller than this get at least `smallWindowPercent`. @default 512_000 */
  readonly smallWindowLimit?: number;
  /** @default 0.75 */
  readonly smallWindowPercent?: number;
  /** The threshold never goes below this many tokens unless the window itself is smaller. @default 64_000 */
  readonly minimumTokens?: number;
}

/**
 * The prompt size at which compaction triggers, with Hermes' arithmetic: a raise-only floor of 75 % for windows
 * under 512 K, the output reservation taken out of the window, a 64 K minimum, and 85 % of the window when that
 * minimum would reach the window itself (otherwise a 64 K model could never trigger).
 */
export function computeThreshold(inputs: ThresholdInputs): number {
  const { contextLength } = inputs;
  const smallLimit = inputs.smallWindowLimit ?? 512_000;
  const percent =
    contextLength > 0 && contextLength < smallLimit
      ? Math.max(inputs.thresholdPercent, inputs.smallWindowPercent ?? 0.75)
      : inputs.thresholdPercent;
  const reserve =
    inputs.maxOutputTokens !== undefined && inputs.maxOutputTokens > 0 ? inputs.maxOutputTokens : 0;
  const window = contextLength - reserve > 0 ? contextLength - reserve : contextLength;
  const floored = Math.max(Math.floor(window * percent), inputs.minimumTokens ?? 64_000);
  if (floored >= window) return Math.max(1, Math.min(Math.floor(window * 0.85), window - 1));
  return floored;
}
