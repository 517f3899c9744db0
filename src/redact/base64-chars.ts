/** True for the 64 characters of standard base64 (`A-Z a-z 0-9 + /`), by UTF-16 code; padding `=` excluded. */
export function isBase64Char(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2b || // +
    code === 0x2f // /
  );
}
