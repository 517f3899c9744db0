import { closestKey } from '../../errors/closest-key.js';
import { CondenseError } from '../../errors/condense-error.js';
import { parseYamlText } from '../../errors/yaml-text.js';
import { RULE_OPTION_FIELDS, type RuleEngineOptions } from './options.js';

/** Where a configuration came from, for error messages. */
export interface RuleConfigSource {
  /** File name shown in errors. */
  readonly file?: string;
}

/** The YAML key of each option (the seed's snake_case names); values are checked by the options' own fields. */
const KEYS: Readonly<Record<string, keyof typeof RULE_OPTION_FIELDS>> = {
  enabled: 'enabled',
  preset: 'preset',
  trigger_threshold: 'triggerThreshold',
  protect_last_n_turns: 'protectLastN',
  max_tool_output_chars: 'maxToolOutputChars',
  truncate_head_lines: 'truncateHeadLines',
  truncate_tail_lines: 'truncateTailLines',
  keep_tool_summary: 'keepToolSummary',
  drop_system_after_turn: 'dropSystemAfterTurn',
  collapse_consecutive_assistant: 'collapseConsecutiveAssistant',
  cache_friendly: 'cacheFriendly',
  context_length: 'contextLength',
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
  const document = parseYamlText(text);
  if (!document.ok) fail(source, [document.message], document.line);
  const root: unknown = document.value;
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
    fail(source, [`"${SECTION}" must be a mapping of settings`], document.lineOf([SECTION]));
  }
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section as Record<string, unknown>)) {
    const option = KEYS[key];
    if (option === undefined) {
      const near = closestKey(key, RULE_CONFIG_KEYS);
      problems.push({
        key,
        message: `unknown key "${prefix}${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; known keys: ${RULE_CONFIG_KEYS.join(', ')}`,
      });
      continue;
    }
    const parsed = RULE_OPTION_FIELDS[option].safeParse(value);
    if (!parsed.success) {
      const expects = parsed.error.issues[0]?.message ?? 'valid';
      problems.push({ key, message: `${prefix}${key} must be ${expects}, got ${JSON.stringify(value)}` });
      continue;
    }
    options[option] = parsed.data;
  }
  if (problems.length > 0) {
    const first = problems[0]?.key;
    const path = nested ? [SECTION, first ?? ''] : [first ?? ''];
    const line = first === undefined ? undefined : (document.lineOf(path) ?? document.lineOf([first]));
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
