import { getCodec } from '../../codecs/registry.js';
import type { FormatName } from '../../model/format.js';
import type { CompactionReport } from '../compaction-report.js';
import type { CompressOptions } from '../context-engine.js';
import { compact } from './create-compressor.js';
import type { CompressorOptions } from './options.js';

/** A compacted wire value in the format it came in, and the report. */
export interface CompactWireResult<TWire> {
  readonly wire: TWire;
  readonly report: CompactionReport;
}

/**
 * Compacts a transcript given in a wire format (an OpenAI `messages` array or `{messages}`, an Anthropic
 * request, a ShareGPT entry, AI SDK `ModelMessage[]`, Claude Code records) and returns it in the same format.
 * Messages the compaction kept untouched are re-emitted exactly as they came in.
 */
export async function compactWire<TWire = unknown>(
  wire: TWire,
  format: FormatName,
  options: CompressorOptions & CompressOptions = {},
): Promise<CompactWireResult<TWire>> {
  const codec = getCodec(format);
  const { transcript, report } = await compact(codec.decode(wire).value, options);
  return { wire: codec.encode(transcript) as TWire, report };
}
