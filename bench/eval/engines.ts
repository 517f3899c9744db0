import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
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
];
