import type { CandidateSink } from '../candidate.js';
import { classifySecretName } from '../names.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { readValue } from '../values.js';
import { forEachMatch } from '../windows.js';
import { pushNamedValue } from './named-value.js';

// A quoted key and a colon: JSON, YAML flow, Python dicts, and JSON escaped inside JSON strings (`\"key\":`,
// `\\\"key\\\":`). The key is bounded, so a failed attempt costs at most 100 characters.
const QUOTED_KEY = /(?<!\\)(\\*)(["'])([^"'\\\n]{1,100})\1\2[ \t]*:[ \t]*/g;

// A bare name, then `:` or `=`, then a quote: keyword arguments, object literals, TOML, Go `:=`.
const NAME_BEFORE_STRING =
  /(?<![\w.$@"'\\-])([A-Za-z_$@][\w.$@-]{0,99})[ \t]*(?::|[?:+]?=(?![=>~]))[ \t]*(?=\\*["'`])/g;

function findQuotedKeys(text: string, out: CandidateSink, scope?: RuleScope): void {
  for (const pattern of [QUOTED_KEY, NAME_BEFORE_STRING]) {
    const nameGroup = pattern === QUOTED_KEY ? 3 : 1;
    forEachMatch(pattern, text, scope?.windows, (match, _start, end) => {
      const name = match[nameGroup] ?? '';
      if (classifySecretName(name) === undefined) return undefined;
      const value = readValue(text, end, false);
      if (value === undefined) return undefined;
      return pushNamedValue(out, text, name, value, 'secret-field') ? value.next : undefined;
    });
  }
}

/** String values of secret-looking keys and names: `"apiKey": "…"`, `password='…'`, `token: "…"`. */
export const fieldRule: RedactRule = {
  name: 'secret-field',
  windowed: true,
  noisy: true,
  find: findQuotedKeys,
};
