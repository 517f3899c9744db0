import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../support/property-seed.js';
import { adapterFor } from '../../../src/integrations/proxy/protocol-adapter.js';
import { usageReaderFor } from '../../../src/integrations/proxy/usage-reader.js';

const openaiStream = [
  'data: {"id":"c","choices":[{"index":0,"delta":{"content":"héllo wörld"}}]}',
  '',
  'data: {"id":"c","choices":[],"usage":{"prompt_tokens":1234,"completion_tokens":5,"total_tokens":1239}}',
  '',
  'data: [DONE]',
  '',
  '',
].join('\n');

const anthropicStream = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":900,"cache_read_input_tokens":100,"output_tokens":1}}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ünïcode"}}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}',
  '',
].join('\n');

/** Reads `text` through the reader in pieces cut at the given byte offsets. */
function readInPieces(text: string, cuts: readonly number[], protocol: 'openai' | 'anthropic') {
  const bytes = new TextEncoder().encode(text);
  const reader = usageReaderFor('text/event-stream; charset=utf-8', adapterFor(protocol));
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    reader?.push(bytes.subarray(from, point));
    from = point;
  }
  return reader?.promptTokens();
}

describe('usage of streamed answers', () => {
  it('finds the prompt size wherever the stream is cut into chunks, multi-byte characters included', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        expect(readInPieces(openaiStream, cuts, 'openai')).toBe(1234);
        expect(readInPieces(anthropicStream, cuts, 'anthropic')).toBe(1000);
      }),
    );
  });

  it('reports nothing for a stream without usage, and reads JSON answers whole', () => {
    expect(readInPieces('data: {"choices":[]}\n\ndata: [DONE]\n\n', [5], 'openai')).toBeUndefined();
    const json = usageReaderFor('application/json', adapterFor('openai'));
    json?.push(new TextEncoder().encode('{"usage":{"prompt_'));
    json?.push(new TextEncoder().encode('tokens":77}}'));
    expect(json?.promptTokens()).toBe(77);
    expect(usageReaderFor('text/plain', adapterFor('openai'))).toBeUndefined();
  });
});
