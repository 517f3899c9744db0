import { extractArtifacts } from '../../inspect/artifacts.js';
import type { Message } from '../../model/message.js';
import type { RedactOptions } from '../../redact/options.js';
import { createRedactor } from '../../redact/redactor.js';
import { checkpointOf, parseCheckpoint } from '../../transforms/checkpoint-text.js';
import { parseSections } from '../prompts/checkpoint-template.js';
import type { Summarizer, SummaryRequest, SummaryResult } from '../summarizer.js';
import { buildDraft } from './build-draft.js';
import { collectFacts } from './collect-facts.js';
import { fitDraft } from './fit-draft.js';

/** Options of {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /** Name shown in reports. @default 'extractive' */
  readonly name?: string;
  /**
   * Redaction of the checkpoint text, or `false` to keep it as extracted (the turns it comes from are not
   * redacted either). @default {} (built-in rules)
   */
  readonly redact?: RedactOptions | false;
  /**
   * Share of the turns' own tokens (previous checkpoint included) the checkpoint stays under, whatever the
   * target, as long as every artifact still fits: a checkpoint larger than what it replaces saves nothing.
   * @default 0.6
   */
  readonly maxInputShare?: number;
}

/**
 * Takes checkpoint messages out of the turns (the contract says there are none, but a transcript compacted by
 * another tool may carry one): the last one becomes the previous summary when none was given. The turns around
 * it are all kept, so nothing they name is lost.
 */
function separateCheckpoints(request: SummaryRequest): { messages: readonly Message[]; previous?: string } {
  let found: string | undefined;
  const messages = request.messages.filter((message) => {
    const checkpoint = checkpointOf(message);
    if (checkpoint === undefined) return true;
    found = checkpoint.body;
    return false;
  });
  const previous = request.previousSummary ?? found;
  return previous === undefined ? { messages } : { messages, previous };
}

/**
 * A summarizer that needs no model: it builds the checkpoint from the turns themselves. Active Task is the
 * latest request verbatim; every tool call becomes a numbered action with its exact target (command, path, URL,
 * query) and outcome (exit code, first error line); files are listed by what was done to them; every path,
 * URL, command, error line and tool name of the turns (see `extractArtifacts`) appears somewhere in the text;
 * decisions and user constraints are the sentences that state them. With a previous checkpoint it updates it:
 * earlier numbered actions stay and new ones continue the numbering, blockers that later succeeded move to
 * Resolved Questions. The text fits `targetTokens` by giving up prose first and artifacts last (a note says
 * how many were left out). Deterministic, never calls anything, `calls` is 0.
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const redactor = options.redact === false ? undefined : createRedactor(options.redact ?? {});
  const name = options.name ?? 'extractive';
  const share = options.maxInputShare ?? 0.6;
  return {
    name,
    kind: 'extractive',
    summarize(request: SummaryRequest): Promise<SummaryResult> {
      return Promise.resolve(summarizeExtractively(request, redactor, share));
    },
  };
}

function summarizeExtractively(
  request: SummaryRequest,
  redactor: ReturnType<typeof createRedactor> | undefined,
  share: number,
): SummaryResult {
  const { messages, previous } = separateCheckpoints(request);
  const previousBody = previous === undefined ? undefined : (parseCheckpoint(previous)?.body ?? previous);
  const draft = buildDraft({
    facts: collectFacts(messages),
    artifacts: extractArtifacts(messages),
    ...(request.latestUserRequest === undefined ? {} : { latestUserRequest: request.latestUserRequest }),
    ...(previousBody === undefined || previousBody.trim() === ''
      ? {}
      : { previous: parseSections(previousBody) }),
    ...(request.focusTopic === undefined || request.focusTopic.trim() === ''
      ? {}
      : { focusTopic: request.focusTopic.trim() }),
  });
  const target = Math.max(1, Math.floor(request.targetTokens));
  const input =
    messages.reduce((sum, message) => sum + request.counter.countMessage(message), 0) +
    (previous === undefined ? 0 : request.counter.countText(previous));
  const fitted = fitDraft(draft, (text) => request.counter.countText(text), target, input * share);
  const text = redactor === undefined ? fitted.text : redactor.text(fitted.text).text;
  const notes: string[] = [];
  if (fitted.dropped > 0) notes.push(`${fitted.dropped} artifacts left out to fit ${target} tokens`);
  if (fitted.overBudget) notes.push(`checkpoint is ${fitted.tokens} tokens, over the ${target}-token target`);
  return { text, source: 'extractive', calls: 0, ...(notes.length === 0 ? {} : { notes }) };
}
