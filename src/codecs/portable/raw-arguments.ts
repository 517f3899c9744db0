import { parseNestedJson } from '../json-depth.js';
import { isWireObject } from '../wire-object.js';

/**
 * Anthropic's `tool_use.input` must be a JSON object, so argument text that is not one (invalid JSON from a model
 * or a transform, an array, a number…) travels wrapped in an object under this key, whole.
 */
export const RAW_ARGUMENTS_KEY = '_raw_arguments';

/** Argument text parsed as JSON, or `undefined` when it is not JSON. */
export function parsedArguments(text: string): { value: unknown } | undefined {
  try {
    return { value: parseNestedJson(text) };
  } catch {
    return undefined;
  }
}

/** The text of a value shaped like the wrapper: an object whose only key is `_raw_arguments`, a string. */
function wrapperText(value: unknown): string | undefined {
  if (!isWireObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== RAW_ARGUMENTS_KEY) return undefined;
  const text = value[RAW_ARGUMENTS_KEY];
  return typeof text === 'string' ? text : undefined;
}

/**
 * True when argument text travels wrapped on a wire whose tool input must be an object: text that is not a JSON
 * object, and an object a reader would take for the wrapper itself (so that reading back always gives the text
 * written). Blank text is sent as `{}` instead.
 */
export function wrapsArguments(text: string): boolean {
  if (text.trim() === '') return false;
  const parsed = parsedArguments(text);
  return parsed === undefined || !isPlainObject(parsed.value);
}

/** An object that is not the wrapper of text that would be wrapped: sent as it is. */
function isPlainObject(value: unknown): boolean {
  if (!isWireObject(value)) return false;
  const inner = wrapperText(value);
  return inner === undefined || !wrapsArguments(inner);
}

/** The JSON object a tool input must be, for argument text: `{}`, the parsed object, or the text wrapped. */
export function objectInput(text: string): unknown {
  if (text.trim() === '') return {};
  const parsed = parsedArguments(text);
  return parsed !== undefined && isPlainObject(parsed.value) ? parsed.value : { [RAW_ARGUMENTS_KEY]: text };
}

/**
 * The argument text a tool input stands for when it is the wrapper of text that {@link wrapsArguments}: decoding
 * unwraps it so that converting to a format with text arguments gives the model's text as it was, and encoding
 * wraps it again the same way. An object that only looks like the wrapper stays an object.
 */
export function unwrapRawArguments(input: unknown): string | undefined {
  const text = wrapperText(input);
  return text !== undefined && wrapsArguments(text) ? text : undefined;
}
