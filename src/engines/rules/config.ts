import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { CondenseError } from '../../errors/condense-error.js';
import { RULE_PRESETS, type RuleEngineOptions } from './options.js';

/** Where a configuration came from, for error messages. */
export interface RuleConfigSource {
  /** File name shown in errors. */
  readonly file?: string;
}

interface KeySpec {
  readonly option: keyof RuleEngineOptions;
  readonly schema: z.ZodType;
  /** What a valid value is, in the words of the error message. */
  readonly expects: string;
}

const boolean = z.boolean();
const KEYS: Readonly<Record<string, KeySpec>> = {
  enabled: { option: 'enabled', schema: boolean, expects: 'true or false' },
  preset: { option: 'preset', schema: z.enum(RULE_PRESETS), expects: RULE_PRESETS.join(' or ') },
  trigger_threshold: {
    option: 'triggerThreshold',
    schema: z.number().gt(0).lte(1),
    expects: 'a share of the context window in (0, 1], e.g. 0.60',
  },
  protect_last_n_turns: {
    option: 'protectLastNTurns',
    schema: z.int().min(1),
    expects: 'a whole number of turns ≥ 1',
  },
  max_tool_output_chars: {
    option: 'maxToolOutputChars',
    schema: z.int().min(50),
    expects: 'a whole number of characters ≥ 50',
  },
  truncate_head_lines: { option: 'truncateHeadLines', schema: z.int().min(1), expects: 'a whole number ≥ 1' },
  truncate_tail_lines: { option: 'truncateTailLines', schema: z.int().min(0), expects: 'a whole number ≥ 0' },
  keep_tool_summary: { option: 'keepToolSummary', schema: boolean, expects: 'true or false' },
  drop_system_after_turn: {
    option: 'dropSystemAfterTurn',
    schema: z.int().min(0),
    expects: 'a whole number of turns ≥ 0 (0 keeps every system message)',
  },
  collapse_consecutive_assistant: {
    option: 'collapseConsecutiveAssistant',
    schema: boolean,
    expects: 'true or false',
  },
  cache_friendly: { option: 'cacheFriendly', schema: boolean, expects: 'true or false' },
  context_length: {
    option: 'contextLength',
    schema: z.int().min(1),
    expects: 'a whole number of tokens ≥ 1',
  },
};

/** The keys a `compaction:` section may hold. */
export const RULE_CONFIG_KEYS: readonly string[] = Object.keys(KEYS);

const SECTION = 'compaction';

/**
 * Reads a rules configuration from YAML text: a `compaction:` section (or the same keys at the top level)
 * with the seed's keys (`enabled`, `trigger_threshold`, `protect_last_n_turns`, `max_tool_output_chars`,
 * `keep_tool_summary`, `drop_system_after_turn`, `collapse_consecutive_assistant`) plus `preset`,
 * `truncate_head_lines`, `truncate_tail_lines`, `cache_friendly` and `context_length`. Every problem (YAML
 * syntax, an unknown key, a wrong value) is reported in one `INVALID_OPTIONS` error naming the key and its line.
 */
export function parseRuleConfig(text: string, source: RuleConfigSource = {}): RuleEngineOptions {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (document.errors.length > 0) {
    const error = document.errors[0];
    fail(
      source,
      [`${error?.message.split('\n')[0] ?? 'invalid YAML'}`],
      error === undefined ? undefined : lines.linePos(error.pos[0]).line,
    );
  }
  const root: unknown = document.toJS();
  if (root === null || root === undefined) return {};
  if (typeof root !== 'object' || Array.isArray(root)) {
    fail(source, ['the configuration must be a mapping with a "compaction:" section'], 1);
  }
  const rootKeys = Object.keys(root);
  const nested = rootKeys.includes(SECTION);
  const section: unknown = nested ? (root as Record<string, unknown>)[SECTION] : root;
  const prefix = nested ? `${SECTION}.` : '';
  const problems: { message: string; key: string | undefined }[] = [];
  if (nested) {
    for (const key of rootKeys.filter((key) => key !== SECTION)) {
      problems.push({ key, message: `unknown top-level key "${key}" (only "${SECTION}" is allowed)` });
    }
  }
  if (section === null || section === undefined) return {};
  if (typeof section !== 'object' || Array.isArray(section)) {
    fail(source, [`"${SECTION}" must be a mapping of settings`], lineOfKey(document, lines, [SECTION]));
  }
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section as Record<string, unknown>)) {
    const spec = KEYS[key];
    if (spec === undefined) {
      const near = closest(key);
      problems.push({
        key,
        message: `unknown key "${prefix}${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; known keys: ${RULE_CONFIG_KEYS.join(', ')}`,
      });
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      problems.push({
        key,
        message: `${prefix}${key} must be ${spec.expects}, got ${JSON.stringify(value)}`,
      });
      continue;
    }
    options[spec.option] = parsed.data;
  }
  if (problems.length > 0) {
    const first = problems[0]?.key;
    const path = nested ? [SECTION, first ?? ''] : [first ?? ''];
    const line =
      first === undefined
        ? undefined
        : (lineOfKey(document, lines, path) ?? lineOfKey(document, lines, [first]));
    fail(
      source,
      problems.map((problem) => problem.message),
      line,
    );
  }
  return options as RuleEngineOptions;
}

function fail(source: RuleConfigSource, messages: readonly string[], line: number | undefined): never {
  throw new CondenseError({
    code: 'INVALID_OPTIONS',
    message: `invalid compaction configuration: ${messages.join('; ')}`,
    hint: 'fix the key in the configuration file (see examples/compaction.yaml)',
    location: {
      ...(source.file === undefined ? {} : { file: source.file }),
      ...(line === undefined ? {} : { line }),
    },
  });
}

/** 1-based line of the key at `path` in the YAML document, if it is there. */
function lineOfKey(
  document: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  path: readonly string[],
): number | undefined {
  const parent = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return undefined;
  for (const item of parent.items) {
    if (isScalar(item.key) && item.key.value === path[path.length - 1] && item.key.range != null) {
      return lines.linePos(item.key.range[0]).line;
    }
  }
  return undefined;
}

/** The known key a misspelt one probably meant: one it abbreviates, else the nearest within 3 edits. */
function closest(key: string): string | undefined {
  const normalized = key.toLowerCase().replaceAll('-', '_');
  const extended = RULE_CONFIG_KEYS.filter((known) => normalized.length >= 4 && known.startsWith(normalized));
  if (extended.length === 1) return extended[0];
  let best: string | undefined;
  let bestDistance = 4;
  for (const known of RULE_CONFIG_KEYS) {
    const distance = editDistance(normalized, known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[column] as number) + 1,
          (current[column - 1] as number) + 1,
          (previous[column - 1] as number) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[right.length] as number;
}
