/**
 * Codes of the characters of JSON syntax: ASCII, so each is both its UTF-16 code (`charCodeAt`) and its one byte
 * in UTF-8 text, for the scanners that walk JSON text or JSONL bytes without parsing them.
 */
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
