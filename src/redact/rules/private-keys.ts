import { isBase64Char } from '../base64-chars.js';
import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { RedactRule } from '../rule.js';

const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,3})PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;

/** Characters of a key body, its headers (`Proc-Type: 4,ENCRYPTED`) and its line breaks, literal or escaped. */
function isBodyChar(code: number): boolean {
  return (
    isBase64Char(code) ||
    code === 0x3d || // =
    code === 0x3a || // :
    code === 0x2c || // ,
    code === 0x2d || // -
    code === 0x5c || // backslash of an escaped newline
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d
  );
}

/**
 * PEM, OpenSSH and PGP private key blocks, including blocks whose newlines are escaped (`\n` inside a JSON
 * string) and blocks cut off before their END line (truncated tool output), which Hermes lets through.
 */
function findPrivateKeys(text: string, out: CandidateSink): void {
  BEGIN.lastIndex = 0;
  // Once a search for an END line has failed, no later BEGIN can find one: remembering it keeps this linear.
  let noEndFrom = text.length + 1;
  for (let begin = BEGIN.exec(text); begin !== null; begin = BEGIN.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    let end: RegExpExecArray | null = null;
    if (bodyStart < noEndFrom) {
      END.lastIndex = bodyStart;
      end = END.exec(text);
      if (end === null) noEndFrom = bodyStart;
    }
    let stop: number;
    if (end !== null) stop = end.index + end[0].length;
    else {
      stop = bodyStart;
      while (stop < text.length && isBodyChar(text.charCodeAt(stop))) stop++;
      while (stop > bodyStart && /\s/.test(text[stop - 1] ?? '')) stop--;
    }
    pushCandidate(out, begin.index, stop, 'private-key', 'marker');
    BEGIN.lastIndex = stop;
  }
}

/** Private key blocks become one fixed marker. */
export const privateKeyRule: RedactRule = {
  name: 'private-keys',
  noisy: false,
  // `BEGIN` and any algorithm words end with a space before `PRIVATE KEY`.
  triggers: ['PRIVATE KEY'],
  find: findPrivateKeys,
};
