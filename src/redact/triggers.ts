import type { RedactRule, RuleScope, RuleTrigger } from './rule.js';

/**
 * The triggers of every rule, scanned in one pass over a text: a rule whose triggers are all absent is
 * skipped without looking at the text again.
 *
 * Every trigger follows a character that is not a letter or digit (or the start of the text): secrets start
 * at a word boundary. The pass is a regex per case mode, that class followed by an alternation of the
 * triggers, which the regex engine rejects at once inside words, where most characters of code and prose are.
 * At each position it stops at (rare), the triggers that can start with the next character are tested one by
 * one, since several rules may share a position (`secret_` of Notion and `secret_access_key` of AWS).
 */
export class TriggerScanner {
  /** One gate per case mode: a boundary character, then any trigger. */
  readonly #gates: readonly RegExp[];
  /** Gates of the triggers that follow one given character (`after`), with the triggers each may find. */
  readonly #afterGates: readonly { readonly gate: RegExp; readonly triggers: readonly number[] }[];
  /** For each trigger (flat index), a sticky regex of it. */
  readonly #sticky: readonly RegExp[];
  /** For each ASCII code, the triggers that can start with it. */
  readonly #byFirst: readonly (readonly number[])[];
  /** Triggers that may start with a character beyond ASCII. */
  readonly #wide: readonly number[];
  /** For each rule: the flat index of its first trigger, or -1 when it has none. */
  readonly #firstTrigger: readonly number[];
  readonly #count: number;

  constructor(rules: readonly RedactRule[]) {
    const sticky: RegExp[] = [];
    const byFirst: number[][] = Array.from({ length: 128 }, () => []);
    const wide: number[] = [];
    const first: number[] = [];
    const sources: Record<'exact' | 'caseless', string[]> = { exact: [], caseless: [] };
    const after: Record<'exact' | 'caseless', { sources: string[]; triggers: number[] }> = {
      exact: { sources: [], triggers: [] },
      caseless: { sources: [], triggers: [] },
    };
    for (const rule of rules) {
      first.push(rule.triggers === undefined ? -1 : sticky.length);
      const flags = rule.caseless === true ? 'i' : '';
      for (const trigger of rule.triggers ?? []) {
        const index = sticky.length;
        if (typeof trigger !== 'string') {
          if (!/^[^A-Za-z0-9]$/.test(trigger.after))
            throw new Error('a redaction trigger must follow one character that is not a letter or digit');
          sticky.push(new RegExp(trigger.pattern, `y${flags}`));
          const group = after[rule.caseless === true ? 'caseless' : 'exact'];
          group.sources.push(`\\${trigger.after}(?:${trigger.pattern})`);
          group.triggers.push(index);
          continue;
        }
        sticky.push(new RegExp(trigger, `y${flags}`));
        sources[rule.caseless === true ? 'caseless' : 'exact'].push(trigger);
        const starts = firstCharacters(trigger, flags);
        for (let code = 0; code < 128; code++)
          if (starts.test(String.fromCharCode(code))) byFirst[code]?.push(index);
        if (starts.test('\u00e9') || starts.test('\u2028')) wide.push(index);
      }
    }
    const gate = (list: readonly string[], flags: string) =>
      new RegExp(`[^A-Za-z0-9](?:${byFirstLetter(list, flags === 'i')})`, `g${flags}`);
    this.#gates = [
      ...(sources.exact.length > 0 ? [gate(sources.exact, '')] : []),
      ...(sources.caseless.length > 0 ? [gate(sources.caseless, 'i')] : []),
    ];
    this.#afterGates = (['exact', 'caseless'] as const)
      .filter((mode) => after[mode].sources.length > 0)
      .map((mode) => ({
        gate: new RegExp(after[mode].sources.join('|'), mode === 'exact' ? 'g' : 'gi'),
        triggers: after[mode].triggers,
      }));
    this.#sticky = sticky;
    this.#byFirst = byFirst;
    this.#wide = wide;
    this.#firstTrigger = first;
    this.#count = sticky.length;
  }

  /** Which triggers occur in `text`. The start of the text counts as a boundary. */
  scan(text: string): TriggerScan {
    const fired = new Uint8Array(this.#count);
    if (text.length > 0) this.#check(text, 0, fired, undefined);
    for (const gate of this.#gates) {
      gate.lastIndex = 0;
      for (let match = gate.exec(text); match !== null; match = gate.exec(text)) {
        this.#check(text, match.index + 1, fired, undefined);
        // Another trigger may start inside this one.
        gate.lastIndex = match.index + 1;
      }
    }
    for (const { gate, triggers } of this.#afterGates) {
      gate.lastIndex = 0;
      for (let match = gate.exec(text); match !== null; match = gate.exec(text)) {
        this.#check(text, match.index + 1, fired, triggers);
        gate.lastIndex = match.index + 1;
      }
    }
    return new TriggerScan(fired, this.#firstTrigger);
  }

  /** Marks the triggers that match at `at`: those of `among`, or else those that can start there. */
  #check(text: string, at: number, fired: Uint8Array, among: readonly number[] | undefined): void {
    const code = text.charCodeAt(at);
    for (const index of among ?? (code < 128 ? (this.#byFirst[code] ?? []) : this.#wide)) {
      if (fired[index] === 1) continue;
      const sticky = this.#sticky[index] as RegExp;
      sticky.lastIndex = at;
      if (sticky.test(text)) fired[index] = 1;
    }
  }
}

/**
 * A regex matching the characters a trigger can start with: its first atom (a character, an escape, a class,
 * or a group of alternatives, each starting with one), after any leading look-behind. The first atom must not
 * be optional.
 */
function firstCharacters(source: string, flags: string): RegExp {
  const classes = firstAtoms(source);
  return new RegExp(`^(?:${classes.join('|')})$`, flags);
}

function firstAtoms(source: string): string[] {
  let rest = source;
  while (rest.startsWith('(?<=') || rest.startsWith('(?<!')) rest = rest.slice(groupEnd(rest, 0) + 1);
  let atom: string;
  let atoms: string[];
  if (rest.startsWith('(?:')) {
    const end = groupEnd(rest, 0);
    atom = rest.slice(0, end + 1);
    atoms = splitAlternatives(rest.slice(3, end)).flatMap(firstAtoms);
  } else {
    if (rest.startsWith('\\')) atom = rest.slice(0, 2);
    else if (rest.startsWith('[')) atom = rest.slice(0, classEnd(rest, 0) + 1);
    else atom = rest.slice(0, 1);
    atoms = [atom];
  }
  if (atom === '' || atom === '(' || atom === '|' || /^(?:[?*]|{0[,}])/.test(rest.slice(atom.length)))
    throw new Error(
      `redaction trigger must start with a character, class or group that is not optional: ${source}`,
    );
  return atoms;
}

/** Index of the `]` closing the class that opens at `start`. */
function classEnd(source: string, start: number): number {
  let index = start + 1;
  while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
  return index;
}

/** Index of the `)` closing the group that opens at `start`. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (let index = start; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') index++;
    else if (char === '[') index = classEnd(source, index);
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  throw new Error(`unbalanced group in redaction trigger: ${source}`);
}

/** The top-level alternatives of a group's body. */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === '\\') index++;
    else if (char === '[') index = classEnd(body, index);
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      out.push(body.slice(start, index));
      start = index + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/**
 * The alternation of `sources`, those that start with the same letter or digit grouped behind it
 * (`s(?:k-|ecret_)`): the regex engine then tests one branch per position instead of every trigger.
 */
function byFirstLetter(sources: readonly string[], caseless: boolean): string {
  const groups = new Map<string, string[]>();
  const others: string[] = [];
  for (const source of sources) {
    const first = source[0] ?? '';
    if (!/[A-Za-z0-9_]/.test(first)) {
      others.push(source);
      continue;
    }
    const key = caseless ? first.toLowerCase() : first;
    const group = groups.get(key) ?? [];
    group.push(source.slice(1));
    groups.set(key, group);
  }
  const grouped = [...groups].map(([first, rests]) =>
    rests.length === 1 ? `${first}${rests[0]}` : `${first}(?:${rests.join('|')})`,
  );
  return [...grouped, ...others].join('|');
}

/** What a trigger scan found: per rule, whether it must run and which of its triggers fired. */
export class TriggerScan {
  readonly #fired: Uint8Array;
  readonly #firstTrigger: readonly number[];

  constructor(fired: Uint8Array, firstTrigger: readonly number[]) {
    this.#fired = fired;
    this.#firstTrigger = firstTrigger;
  }

  /** True when the rule at `ruleIndex` (in the scanner's rule list) has no triggers or one of them fired. */
  runs(ruleIndex: number, rule: RedactRule): boolean {
    const first = this.#firstTrigger[ruleIndex] ?? -1;
    const triggers: readonly RuleTrigger[] | undefined = rule.triggers;
    if (first === -1 || triggers === undefined) return true;
    for (let index = 0; index < triggers.length; index++) if (this.#fired[first + index] === 1) return true;
    return false;
  }

  /** The scope handed to the rule's `find`. */
  scope(ruleIndex: number, windows: readonly number[] | undefined): RuleScope {
    const first = this.#firstTrigger[ruleIndex] ?? -1;
    const fired = this.#fired;
    return {
      fired: first === -1 ? () => true : (trigger) => fired[first + trigger] === 1,
      windows,
    };
  }
}
