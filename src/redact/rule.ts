import type { CandidateSink } from './candidate.js';

/**
 * Where a rule may look, as decided by the trigger scan (`triggers.ts`). Absent: everywhere, every trigger
 * fired (benchmarks and tests that run one rule alone).
 */
export interface RuleScope {
  /** True when the rule's trigger at this index was seen in the text. */
  fired(trigger: number): boolean;
  /**
   * For windowed rules: sorted, disjoint `[start, end)` pairs of the lines that mention a secret-looking name
   * (flattened: start, end, start, end…).
   */
  readonly windows: readonly number[] | undefined;
}

/**
 * A trigger: a regex source that follows any character that is not a letter or digit, or one that follows a
 * given such character (`after`: the `:` of a Telegram token, whose digits may follow a letter).
 */
export type RuleTrigger = string | { readonly after: string; readonly pattern: string };

/** The scope of a rule run alone: every trigger fired, no windows. */
export const WHOLE_TEXT: RuleScope = { fired: () => true, windows: undefined };

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
   * Necessary conditions: regex sources, one of which must match right after a character that is not a letter
   * or digit (or at the start of the text) wherever the rule finds anything. All rules' triggers are scanned
   * in one pass (`triggers.ts`); a rule runs only when one of its own fired. A trigger starts with a plain
   * character or class (not a group) and holds no capture group; its letters match either case when
   * `caseless` is set. Absent: the rule always runs.
   */
  readonly triggers?: readonly RuleTrigger[];
  readonly caseless?: boolean;
  /**
   * The rule only masks values of names that mention a secret (`classifySecretName`), and every match it acts
   * on starts on the line of that name: it is run on the lines that mention one (see `windows.ts`).
   */
  readonly windowed?: boolean;
  find(text: string, out: CandidateSink, scope?: RuleScope): void;
}
