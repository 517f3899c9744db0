import type { CandidateSink } from '../candidate.js';
import { classifySecretName } from '../names.js';
import type { RedactRule } from '../rule.js';
import { readValue } from '../values.js';
import { pushNamedValue } from './named-value.js';

// A quoted key and a colon: JSON, YAML flow, Python dicts, and JSON escaped inside a JSON string (`\"key\":`).
// The key is bounded, so a failed attempt costs at most 100 characters.
const QUOTED_KEY = /(\\?)(["'])([^"'\\\n]{1,100})\1\2[ \t]*:[ \t]*/g;

// A bare name, then `:` or `=`, then a quote: keyword arguments, object literals, TOML, Go `:=`.
const NAME_BEFORE_STRING =
  /(?<![\w.$@"'\\-])([A-Za-z_$@][\w.$@-]{0,99})[ \t]*(?::|[?:+]?=(?![=>~]))[ \t]*(?=\\?["'`])/g;

function findQuotedKeys(text: string, out: CandidateSink): void {
  for (const pattern of [QUOTED_KEY, NAME_BEFORE_STRING]) {
    const nameGroup = pattern === QUOTED_KEY ? 3 : 1;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const name = match[nameGroup] ?? '';
      if (classifySecretName(name) === undefined) continue;
      const value = readValue(text, pattern.lastIndex, false);
      if (value === undefined) continue;
      if (pushNamedValue(out, text, name, value, 'secret-field')) pattern.lastIndex = value.next;
    }
  }
}

/** String values of secret-looking keys and names: `"apiKey": "…"`, `password='…'`, `token: "…"`. */
export const fieldRule: RedactRule = {
  name: 'secret-field',
  needsSecretName: true,
  noisy: true,
  triggers: ['"', "'", '`'],
  find: findQuotedKeys,
};
