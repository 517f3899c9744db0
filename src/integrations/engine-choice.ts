import type { CompressorOptions } from '../engines/compressor/options.js';
import type { ContextEngine } from '../engines/context-engine.js';
import { createEngine } from '../engines/registry.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';

/**
 * Which engine compacts a conversation: the compressor (checkpoint summaries; the default), the rules engine
 * (zero inference), or any engine of your own, made fresh for each conversation.
 */
export type EngineChoice =
  | { readonly engine?: 'compressor'; readonly engineOptions?: CompressorOptions }
  | { readonly engine: 'rules'; readonly engineOptions?: RuleEngineOptions }
  | { readonly engine: () => ContextEngine; readonly engineOptions?: undefined };

/** A new engine as `choice` describes it. */
export function engineFrom(choice: EngineChoice): ContextEngine {
  if (typeof choice.engine === 'function') return choice.engine();
  if (choice.engine === 'rules') return createEngine('rules', choice.engineOptions ?? {});
  return createEngine('compressor', (choice.engineOptions ?? {}) as CompressorOptions);
}
