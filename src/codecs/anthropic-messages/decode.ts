import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import { asJson, isWireObject } from '../wire-object.js';
import { decodeBlock } from './decode-block.js';
import { decodeAnthropicMessage } from './decode-message.js';
import { decodedMessageMeta, decodedTranscript } from './meta.js';

/**
 * Decodes an Anthropic Messages request `{system?, messages, …}` (every other key — model, tools, max_tokens —
 * is kept) or a bare array of messages. The top-level `system` becomes a leading system message. Never throws:
 * anything else decodes to an empty transcript with an error issue and is written back unchanged.
 */
export function decodeAnthropic(wire: unknown): DecodeResult<Transcript> {
  const issues: DecodeIssue[] = [];
  if (Array.isArray(wire)) {
    return { value: decodedTranscript(wire, decodeMessages(wire, issues), { envelope: 'array' }), issues };
  }
  if (!isWireObject(wire) || !Array.isArray(wire['messages'])) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message:
        'not an Anthropic Messages request: expected an object with a messages array, or a message array',
      path: [],
    });
    return {
      value: decodedTranscript(wire, [], { envelope: 'verbatim', value: asJson(wire ?? null) }),
      issues,
    };
  }
  const messages = decodeMessages(wire['messages'], issues);
  const system = wire['system'];
  if (system !== undefined) messages.unshift(decodeSystem(system));
  const rest = asJson({ ...wire, messages: [], ...(system === undefined ? {} : { system: '' }) });
  return { value: decodedTranscript(wire, messages, { envelope: 'request', rest }), issues };
}

function decodeMessages(wire: readonly unknown[], issues: DecodeIssue[]): Message[] {
  return wire.flatMap((message, index) => decodeAnthropicMessage(message, index, issues));
}

function decodeSystem(system: unknown): Message {
  let parts: Part[];
  let shape: string;
  if (typeof system === 'string') {
    parts = system === '' ? [] : [{ type: 'text', text: system }];
    shape = 'string';
  } else if (Array.isArray(system)) {
    parts = system.map(decodeBlock);
    shape = 'blocks';
  } else {
    parts = [{ type: 'opaque', kind: 'system', value: asJson(system) }];
    shape = 'other';
  }
  return { role: 'system', parts, meta: decodedMessageMeta(system, parts, { system: shape }) };
}
