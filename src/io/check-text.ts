import { CondenseError } from '../errors/condense-error.js';

/** Bytes looked at for NUL bytes, as Git does to tell binary files from text. */
const SNIFF_BYTES = 8000;

const TEXT_HINT = 'pass a transcript file: JSON or JSONL text in UTF-8';

/** What a text input must be, for the messages of {@link checkTextInput}. */
export interface TextExpectation {
  /** What the input should be, e.g. `JSON or JSONL text`. @default 'JSON or JSONL text' */
  readonly kind?: string;
  /** What to do about a wrong input. @default pass a transcript file */
  readonly hint?: string;
}

/**
 * Refuses text input that cannot be what a command needs before any parser sees it: nothing at all
 * (`EMPTY_INPUT`), or binary content, told by a NUL byte near the start (`INVALID_INPUT`; UTF-16 text looks the
 * same and is named in the message). `where` names the source: a file path or `standard input`.
 */
export function checkTextInput(
  text: string | Uint8Array,
  where: string,
  expected: TextExpectation = {},
): void {
  const hint = expected.hint ?? TEXT_HINT;
  const subject = where === 'standard input' ? 'standard input' : 'the file';
  const head = typeof text === 'string' ? text.slice(0, SNIFF_BYTES) : text.subarray(0, SNIFF_BYTES);
  const location = where === 'standard input' ? {} : { location: { file: where } };
  if (isBlank(text)) {
    throw new CondenseError({
      code: 'EMPTY_INPUT',
      message: `${subject} is empty${text.length === 0 ? '' : ' (only blank space)'}`,
      hint: where === 'standard input' ? 'pipe a transcript into condense, or name a file' : hint,
      ...location,
    });
  }
  if (typeof head === 'string' ? head.includes('\u0000') : head.includes(0)) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: `${subject} is binary (it holds NUL bytes), not ${expected.kind ?? 'JSON or JSONL text'}; UTF-16 text looks the same`,
      hint: `${hint}; convert UTF-16 with iconv -f UTF-16 -t UTF-8`,
      ...location,
    });
  }
}

/** {@link checkTextInput} for transcripts (JSON or JSONL), with `hint` as what to do. */
export function checkTranscriptText(text: string | Uint8Array, where: string, hint = TEXT_HINT): void {
  checkTextInput(text, where, { hint });
}

function isBlank(text: string | Uint8Array): boolean {
  if (typeof text === 'string') return text.trim() === '';
  for (const byte of text) {
    // Space, tab, CR, LF: anything else may be content.
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return false;
  }
  return true;
}
