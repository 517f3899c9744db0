import { compactOrSmallest } from '../../src/engines/best-effort.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { ContextEngine } from '../../src/engines/context-engine.js';
import { createRuleEngine } from '../../src/engines/rules/create-rule-engine.js';
import type { Transcript } from '../../src/model/transcript.js';

/** An engine configuration the evaluation runs. */
export interface EvalEngine {
  readonly name: string;
  readonly description: string;
  run(transcript: Transcript, contextLength: number): Promise<Transcript>;
}

/** The engines `npm run eval` compares. */
export const ENGINES: readonly EvalEngine[] = [
  {
    name: 'compressor-extractive',
    description: 'The compressor engine with its default extractive checkpoint (no model).',
    run: (transcript, contextLength) => smallest(createCompressor({ contextLength }), transcript),
  },
  {
    name: 'rules',
    description:
      'The zero-inference rules engine with its default preset (5 protected steps, outputs over 500 chars cut to 10 + 5 lines).',
    run: (transcript, contextLength) => smallest(createRuleEngine({ contextLength }), transcript),
  },
  {
    name: 'rules-strict',
    description:
      'The rules engine with the strict preset (2 protected steps, outputs over 200 chars cut to 5 + 3 lines).',
    run: (transcript, contextLength) =>
      smallest(createRuleEngine({ contextLength, preset: 'strict' }), transcript),
  },
];

/** A forced pass; when the window cannot be met, the engine's smallest result is what gets measured. */
export async function smallest(engine: ContextEngine, transcript: Transcript): Promise<Transcript> {
  return (await compactOrSmallest(engine, transcript, { force: true })).result.transcript;
}
