import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
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
    run: async (transcript, contextLength) =>
      (await createCompressor({ contextLength }).compress(transcript, { force: true })).transcript,
  },
  {
    name: 'rules',
    description:
      'The zero-inference rules engine with its default preset (5 protected steps, outputs over 500 chars cut to 10 + 5 lines).',
    run: async (transcript, contextLength) =>
      (await createRuleEngine({ contextLength }).compress(transcript, { force: true })).transcript,
  },
  {
    name: 'rules-strict',
    description:
      'The rules engine with the strict preset (2 protected steps, outputs over 200 chars cut to 5 + 3 lines).',
    run: async (transcript, contextLength) =>
      (await createRuleEngine({ contextLength, preset: 'strict' }).compress(transcript, { force: true }))
        .transcript,
  },
];
