import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import { type DecodedUnit, decodeItems } from './decode-items.js';
import { definedFields, extraKeys, RESPONSES } from './meta.js';

/**
 * Where a transcript's items are in the wire value. `request`: a request body (`input`, `instructions`);
 * `response`: a response object (`output`, and `input` when a log kept it); `items`: a bare item list.
 */
export type ResponsesEnvelope = 'request' | 'response' | 'items';

/** The envelope of a value, or `undefined` when it holds no Responses conversation. */
export function envelopeOf(wire: unknown): ResponsesEnvelope | undefined {
  if (Array.isArray(wire)) return 'items';
  if (!isJsonObject(wire)) return undefined;
  if (wire['object'] === 'response' && Array.isArray(wire['output'])) return 'response';
  const input = wire['input'];
  if (Array.isArray(input) || typeof input === 'string') return 'request';
  return undefined;
}

/**
 * Decodes a Responses API conversation: a request body (`instructions` becomes the first, system message;
 * `input` a string or an item list), a response object (its `input` when present, then its `output`), or a
 * bare item list. See `decode-items.ts` for how items become messages. Never throws.
 */
export function decodeResponses(wire: unknown): DecodeResult<Transcript> {
  const issues: DecodeIssue[] = [];
  const envelope = envelopeOf(wire);
  if (envelope === undefined) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message:
        'not a Responses API conversation: expected an item list, a request with input, or a response object',
      path: [],
    });
    return { value: transcriptOf(wire, [], { envelope: 'verbatim' }), issues };
  }
  if (envelope === 'items') {
    const units = decodeItems(wire as unknown[], issues);
    return {
      value: transcriptOf(
        wire,
        units.map((unit) => messageOf(unit, wire as unknown[])),
        { envelope },
      ),
      issues,
    };
  }
  const body = wire as JsonObject;
  const messages: Message[] = [];
  const instructions = body['instructions'];
  const ownInstructions = typeof instructions === 'string' && instructions !== '';
  if (ownInstructions) messages.push(instructionsMessage(instructions));
  const input = body['input'];
  if (typeof input === 'string') {
    messages.push(inputStringMessage(input));
  } else if (Array.isArray(input)) {
    const units = decodeItems(input, issues, { path: ['input'] });
    for (const unit of units) messages.push(messageOf(unit, input));
  }
  if (envelope === 'response') {
    const output = body['output'] as unknown[];
    const units = decodeItems(output, issues, { path: ['output'] });
    for (const unit of units) messages.push(messageOf(unit, output, { output: true }));
  }
  const consumed = ['input', 'output', ...(ownInstructions ? ['instructions'] : [])];
  const rest = extraKeys(body, consumed);
  const fields = definedFields({
    envelope,
    keys: Object.keys(body),
    rest,
    input: Array.isArray(input) ? true : undefined,
  });
  return { value: transcriptOf(wire, messages, fields ?? { envelope }), issues };
}

function instructionsMessage(text: string): Message {
  const parts = [{ type: 'text' as const, text }];
  return {
    role: 'system',
    parts,
    meta: {
      origin: { format: RESPONSES, wire: text, parts },
      codec: { [RESPONSES]: { instructions: true } },
    },
  };
}

function inputStringMessage(text: string): Message {
  const parts = [{ type: 'text' as const, text }];
  return {
    role: 'user',
    parts,
    meta: {
      origin: { format: RESPONSES, wire: text, parts },
      codec: { [RESPONSES]: { inputString: true, envelope: { shape: 'string' } } },
    },
  };
}

/** A message of a unit: its origin is the items it was read from (re-emitted while the parts are untouched). */
export function messageOf(
  unit: DecodedUnit,
  items: readonly unknown[],
  extra: Record<string, JsonValue | undefined> = {},
): Message {
  const wire = unit.items.map((index) => items[index]);
  const fields = definedFields({ ...unit.fields, ...extra });
  return {
    role: unit.role,
    parts: unit.parts,
    meta: {
      origin: { format: RESPONSES, wire, parts: unit.parts },
      ...(fields === undefined ? {} : { codec: { [RESPONSES]: fields } }),
    },
  };
}

function transcriptOf(wire: unknown, messages: Message[], fields: JsonObject): Transcript {
  return {
    messages,
    meta: {
      format: RESPONSES,
      origin: { format: RESPONSES, wire, messages },
      codec: { [RESPONSES]: fields },
    },
  };
}
