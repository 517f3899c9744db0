import { createRedactor, type Redactor } from '../redact/redactor.js';

let shared: Redactor | undefined;

/**
 * The redactor with the built-in rules, compiled once per process: compiling the rules' trigger scanner cost
 * more than summarizing a short transcript, and every compressor made two. A redactor is pure (its result
 * cache only remembers answers), so sharing it changes no output.
 */
export function defaultRedactor(): Redactor {
  shared ??= createRedactor();
  return shared;
}
