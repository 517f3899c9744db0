import type { SchemaTree } from 'hyparquet';
import { CondenseError } from '../errors/condense-error.js';

/**
 * A value read from Parquet as plain JSON: nulls left out of objects (Parquet stores an absent field as null),
 * 64-bit integers as numbers (as text beyond 2^53), dates as ISO text, bytes as base64.
 */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((item) => toJsonValue(item) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const converted = toJsonValue(inner);
      if (converted !== undefined) out[key] = converted;
    }
    return out;
  }
  return value;
}

function mismatch(where: string, message: string): CondenseError {
  return new CondenseError({
    code: 'ENCODE_FAILED',
    message: `${where}: ${message}`,
    hint: "the compressed trajectory does not fit the file's Parquet schema; write JSONL instead (convert the file first)",
  });
}

function isList(node: SchemaTree): boolean {
  const element = node.element;
  return element.converted_type === 'LIST' || element.logical_type?.type === 'LIST';
}

/** The element of a LIST node, under the three-level layout or the older two-level ones (Parquet spec). */
function listElement(node: SchemaTree): SchemaTree {
  const repeated = node.children[0];
  if (repeated === undefined) return node;
  const name = repeated.element.name;
  if (repeated.children.length === 1 && name !== 'array' && !name.endsWith('_tuple')) {
    return repeated.children[0] as SchemaTree;
  }
  return repeated;
}

/**
 * Fits a JSON value to a Parquet schema node so the writer can encode it: lists and structs followed, 64-bit
 * integer leaves turned into BigInt. A key the struct does not have, or a value of the wrong shape, is an
 * `ENCODE_FAILED` error naming where: nothing is dropped silently.
 */
export function conformToSchema(value: unknown, node: SchemaTree, where: string): unknown {
  if (value === null || value === undefined) return null;
  if (isList(node)) {
    if (!Array.isArray(value)) throw mismatch(where, 'a list was expected');
    const element = listElement(node);
    return value.map((item, index) => conformToSchema(item, element, `${where}[${index}]`));
  }
  if (node.children.length > 0) {
    if (typeof value !== 'object' || Array.isArray(value)) throw mismatch(where, 'an object was expected');
    const fields = new Map(node.children.map((child) => [child.element.name, child]));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const child = fields.get(key);
      if (child === undefined) {
        throw mismatch(
          where,
          `field "${key}" is not in the column's schema (${[...fields.keys()].join(', ')})`,
        );
      }
      out[key] = conformToSchema(inner, child, `${where}.${key}`);
    }
    return out;
  }
  return conformLeaf(value, node, where);
}

function conformLeaf(value: unknown, node: SchemaTree, where: string): unknown {
  switch (node.element.type) {
    case 'INT64':
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
      throw mismatch(where, 'a 64-bit integer was expected');
    case 'BYTE_ARRAY':
      // Text columns take any JSON value the codec produced as text (a structured tool output).
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return value;
  }
}
