import type { CandidateSink } from './candidate.js';
import { MENTIONS_SECRET } from './names.js';

/** The text a rule scans, with its lowercase form computed once and only when a rule asks for it. */
export class ScanText {
  readonly text: string;
  #lower: string | undefined;
  #mentionsSecret: boolean | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The text in lowercase, for case-insensitive trigger checks only (lengths may differ from `text`). */
  get lower(): string {
    this.#lower ??= this.text.toLowerCase();
    return this.#lower;
  }

  /** True when some word of the text could be part of a secret-looking name (`token`, `passwd`, `apiKey`…). */
  get mentionsSecret(): boolean {
    this.#mentionsSecret ??= MENTIONS_SECRET.test(this.text);
    return this.#mentionsSecret;
  }
}

/**
 * One family of secrets. `find` pushes every span it wants masked; it must run in time linear in the text
 * (each regex either anchored so that no run of characters is rescanned from inside, or bounded).
 */
export interface RedactRule {
  /** Family name, for benchmarks and documentation. */
  readonly name: string;
  /** Name-based passes that fire on identifiers in source code; skipped in code-file mode. */
  readonly noisy: boolean;
  /**
   * The rule can only match when the text contains one of these (cheap `includes` pre-check). Lowercase
   * triggers are compared against the lowercased text when `caseInsensitive` is set.
   */
  readonly triggers?: readonly string[];
  readonly caseInsensitive?: boolean;
  /** The rule only fires on names that mention a secret, so it is skipped on text that mentions none. */
  readonly needsSecretName?: boolean;
  find(text: string, out: CandidateSink): void;
}

/** True when the rule's triggers allow it to run on this text. */
export function isTriggered(rule: RedactRule, scan: ScanText): boolean {
  if (rule.needsSecretName === true && !scan.mentionsSecret) return false;
  if (rule.triggers === undefined) return true;
  const haystack = rule.caseInsensitive === true ? scan.lower : scan.text;
  return rule.triggers.some((trigger) => haystack.includes(trigger));
}
