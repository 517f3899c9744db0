import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../src/codecs/convert/convert-transcript.js';
import { MAX_JSON_DEPTH, parseNestedJson } from '../../src/codecs/json-depth.js';
import { getCodec } from '../../src/codecs/registry.js';
import { compact } from '../../src/index.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import {
  assistantMessage,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing/transcript-builders.js';

/** JSON text nesting `depth` objects: far past what a recursive walk of the parsed value survives. */
function nested(depth: number): string {
  return `${'{"k":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;
}

function deepCall(depth: number): Transcript {
  const call = toolCall('configure', nested(depth));
  return {
    messages: [
      userMessage('apply the configuration'),
      assistantMessage('Applying it.', call),
      toolResult(call, `applied ${'x'.repeat(3_000)}`),
      assistantMessage('Done.'),
      userMessage('now check the logs'),
    ],
  };
}

/**
 * The arguments text a decoded call carries: as is, as a JSON string (the AI SDK's `input` holds text that is not
 * JSON as a string) or in `_raw_arguments` (Anthropic's `input` must be an object).
 */
function carriedText(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'string') return value;
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)['_raw_arguments']
    : undefined;
}

describe('JSON nested inside transcript strings', () => {
  it('parses text up to the depth limit and refuses deeper text as it refuses text that is not JSON', () => {
    expect(parseNestedJson(nested(MAX_JSON_DEPTH))).toBeTypeOf('object');
    expect(() => parseNestedJson(nested(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => parseNestedJson('{')).toThrow(SyntaxError);
    expect(parseNestedJson('[1, "a"]')).toEqual([1, 'a']);
  });

  it('converts tool arguments nesting 20,000 levels to every format, keeping their text', () => {
    const transcript = deepCall(20_000);
    const args = nested(20_000);
    for (const format of FORMAT_NAMES) {
      const conversion = convertTranscript(transcript, format);
      expect(JSON.stringify(conversion.wire).length, format).toBeGreaterThan(args.length);
      const back = getCodec(format).decode(conversion.wire).value;
      const calls = back.messages.flatMap((message) =>
        message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.arguments] : [])),
      );
      expect(
        calls.some((text) => text.includes(args) || carriedText(text) === args),
        format,
      ).toBe(true);
    }
  });

  it('compacts a transcript whose tool arguments nest 20,000 levels into an extractive checkpoint', async () => {
    const result = await compact(deepCall(20_000), { contextLength: 600 });
    expect(result.report.summary?.source).toBe('extractive');
    expect(result.report.errors).toEqual([]);
    expect(result.transcript.messages.at(-1)).toEqual(userMessage('now check the logs'));
  });
});
