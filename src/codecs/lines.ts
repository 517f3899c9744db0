/** Splits text into lines on `\n`, dropping a trailing `\r` from each (CRLF files) and the empty tail. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.endsWith('\r')) lines[index] = line.slice(0, -1);
  }
  return lines;
}
