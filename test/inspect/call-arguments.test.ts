import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callArgumentObjectOf,
  callArgumentsOf,
  parseJsonArguments,
} from '../../src/inspect/call-arguments.js';
import type { ToolCallPart } from '../../src/model/part.js';

const call = (args: string): ToolCallPart => ({ type: 'tool-call', id: 'c1', name: 'bash', arguments: args });

describe('call arguments', () => {
  it('parses a call once and gives every reader the same value', () => {
    const part = call('{"command":"ls -la","cwd":"/tmp"}');
    const first = callArgumentsOf(part);
    expect(first).toEqual({ command: 'ls -la', cwd: '/tmp' });
    expect(callArgumentsOf(part)).toBe(first);
    expect(callArgumentObjectOf(part)).toBe(first);
  });

  it('answers per call object: an equal new call is parsed on its own', () => {
    const a = call('{"path":"a.ts"}');
    const b = call('{"path":"a.ts"}');
    expect(callArgumentsOf(a)).toEqual(callArgumentsOf(b));
    expect(callArgumentsOf(a)).not.toBe(callArgumentsOf(b));
  });

  it('parses arguments over 64 KiB afresh each time rather than keeping a copy of them', () => {
    const part = call(JSON.stringify({ path: 'big.txt', content: 'x'.repeat(70_000) }));
    const first = callArgumentsOf(part);
    expect(first).toEqual(JSON.parse(part.arguments));
    expect(callArgumentsOf(part)).not.toBe(first);
  });

  it('reads blank, broken and too deeply nested arguments as none, and only objects as an object', () => {
    expect(callArgumentsOf(call('  '))).toBeUndefined();
    expect(callArgumentsOf(call('{"a":'))).toBeUndefined();
    expect(callArgumentsOf(call(`${'['.repeat(600)}${']'.repeat(600)}`))).toBeUndefined();
    expect(callArgumentsOf(call('[1,2]'))).toEqual([1, 2]);
    expect(callArgumentObjectOf(call('[1,2]'))).toBeUndefined();
    expect(callArgumentObjectOf(call('"text"'))).toBeUndefined();
  });

  it('parses like JSON.parse whenever the text is JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonArguments(text)).toEqual(JSON.parse(text));
        expect(callArgumentsOf(call(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
