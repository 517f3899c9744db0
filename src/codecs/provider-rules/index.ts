import type { FormatName } from '../../model/format.js';
import { anthropicWireProblems } from './anthropic-rules.js';
import { openaiWireProblems } from './openai-rules.js';
import type { WireCheckOptions, WireProblem } from './wire-problem.js';

export { ANTHROPIC_TOOL_ID, anthropicWireProblems } from './anthropic-rules.js';
export { openaiWireProblems } from './openai-rules.js';
export type { WireCheckOptions, WireProblem, WireProblemCode, WireScope } from './wire-problem.js';

/** The formats whose wire value is a provider API request, checked by {@link wireProblems}. */
export type ProviderFormat = Extract<FormatName, 'openai' | 'anthropic'>;

/** True for formats with provider rules to check (the others are dataset or session shapes). */
export function isProviderFormat(format: FormatName): format is ProviderFormat {
  return format === 'openai' || format === 'anthropic';
}

/** Every provider-rule problem of one encoded transcript of `format`; empty for formats with no provider API. */
export function wireProblems(
  format: FormatName,
  wire: unknown,
  options: WireCheckOptions = {},
): WireProblem[] {
  if (format === 'openai') return openaiWireProblems(wire, options);
  if (format === 'anthropic') return anthropicWireProblems(wire, options);
  return [];
}
