import type { TokenCounter } from '../../tokens/token-counter.js';
import { isEmptySection, parseSections, SECTION_KEYS } from '../prompts/checkpoint-template.js';

/** What a model answer is checked against. */
export interface AnswerCheck {
  /** The prompt the answer replies to. */
  readonly prompt: string;
  /** The serialized turns the prompt carried. */
  readonly turns: string;
  readonly counter: TokenCounter;
  /** A hard limit on the answer, in tokens, when the checkpoint must fit a window. */
  readonly maxTokens?: number;
}

/** Fewest template sections an answer must have (Current Request among them). */
const MIN_SECTIONS = Math.ceil(SECTION_KEYS.length / 2);
/** Tokens of content (headings aside) below which an answer is too thin for what it replaces. */
const MIN_CONTENT_TOKENS = 40;
const ECHO_MARKERS = ['<turns>', '</turns>', '<checkpoint>', '</checkpoint>', '<latest_request>'];

/**
 * Why a model's answer is not a checkpoint, or undefined when it is one: it must have the template's sections
 * (Current Request and at least half of them), say something in them (not only headings), not echo the prompt
 * or the turns back, and stay under `maxTokens`. Such an answer is a malformed response: the caller retries
 * and, failing that, falls back to the extractive checkpoint.
 */
export function checkpointAnswerProblem(text: string, check: AnswerCheck): string | undefined {
  const trimmed = text.trim();
  if (ECHO_MARKERS.some((marker) => trimmed.includes(marker)))
    return 'the answer echoes the prompt instead of writing a checkpoint';
  if (trimmed.length >= 200 && check.turns.includes(trimmed.slice(0, 200)))
    return 'the answer repeats the turns instead of condensing them';
  const { sections } = parseSections(trimmed);
  if (!sections.has('currentRequest') || sections.size < MIN_SECTIONS) {
    return `the answer is not a checkpoint: it has ${sections.size} of the ${SECTION_KEYS.length} sections (Current Request ${sections.has('currentRequest') ? 'included' : 'missing'})`;
  }
  let content = '';
  for (const value of sections.values()) if (!isEmptySection(value)) content += `${value}\n`;
  const contentTokens = check.counter.countText(content);
  // Thin is relative: a few turns may need only a line, a long stretch never does.
  const turnsTokens = check.counter.countText(check.turns);
  const floor = Math.min(MIN_CONTENT_TOKENS, Math.max(1, Math.floor(turnsTokens / 100)));
  if (contentTokens < floor)
    return `the answer is too short for what it replaces (${contentTokens} tokens of content)`;
  if (check.maxTokens !== undefined) {
    const tokens = check.counter.countText(trimmed);
    if (tokens > check.maxTokens)
      return `the answer is ${tokens} tokens, over the ${check.maxTokens} tokens the checkpoint may take`;
  }
  return undefined;
}
