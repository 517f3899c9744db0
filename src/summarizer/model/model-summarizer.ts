import type { LanguageModel } from 'ai';
import type { Message } from '../../model/message.js';
import type { RedactOptions } from '../../redact/options.js';
import { redactTranscriptWith } from '../../redact/redact-transcript.js';
import { createRedactor } from '../../redact/redactor.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { buildCheckpointPrompt, type CheckpointPromptInput } from '../prompts/checkpoint-prompts.js';
import {
  clipMiddle,
  resolveSerializeOptions,
  type SerializeOptions,
  serializeMessage,
  toolNamesById,
} from '../serialize-turns.js';
import type { SummarizeContext, Summarizer, SummaryRequest, SummaryResult } from '../summarizer.js';
import { SummarizerError } from '../summarizer-error.js';
import { type CallSettings, callModel, defaultSleep, type Sleep } from './call-model.js';
import { checkpointAnswerProblem } from './checkpoint-answer.js';
import {
  createLanguageModel,
  type ModelSpec,
  type ProviderSettings,
  parseModelSpec,
  requiresApiKey,
} from './create-language-model.js';

/** Options of {@link createModelSummarizer}. */
export interface ModelSummarizerOptions extends ProviderSettings {
  /** `openai:<id>`, `anthropic:<id>` or `openai-compatible:<id>` (the last needs `baseUrl`). */
  readonly model: string;
  /** An AI SDK model to call instead of building one from the spec (any provider the SDK supports). */
  readonly languageModel?: LanguageModel;
  /** Name in reports. @default the model spec */
  readonly name?: string;
  /**
   * Tokens the summary model accepts per request (prompt and answer). Longer input is folded in chunks that
   * each fit, every chunk updating the checkpoint written from the ones before.
   * @default 16000
   */
  readonly contextWindow?: number;
  /** Cap on the answer's tokens; not sent by default (a cap cuts checkpoints short). */
  readonly maxOutputTokens?: number;
  /** Sampling temperature; not sent by default (the provider's default applies). */
  readonly temperature?: number;
  /** Time allowed per request, in milliseconds. @default 120000 */
  readonly timeoutMs?: number;
  /** Retries of a transient failure. @default 2 */
  readonly maxRetries?: number;
  /** First retry delay, doubled on each retry, in milliseconds. @default 1000 */
  readonly retryDelayMs?: number;
  /** Longest wait before a retry, `retry-after` included, in milliseconds. @default 30000 */
  readonly maxRetryDelayMs?: number;
  /** How to wait between retries. @default timers */
  readonly sleep?: Sleep;
  /** Redaction applied to the turns before they are sent and to the answer. @default {} */
  readonly redact?: RedactOptions;
  /** Bounds of the serialized turns. */
  readonly serialize?: SerializeOptions;
}

const DEFAULT_WINDOW = 16_000;
/** Fewer tokens than this left for turns means the window cannot hold a useful chunk. */
const MIN_CHUNK_TOKENS = 256;

interface Chunking {
  readonly window: number;
  readonly reserve: number;
  readonly counter: TokenCounter;
}

/** Serialized blocks cut so that the first one fits `available` tokens. */
function shrinkToFit(block: string, available: number, counter: TokenCounter): string {
  let text = block;
  for (let round = 0; round < 8 && counter.countText(text) > available; round++) {
    const ratio = available / Math.max(1, counter.countText(text));
    const max = Math.max(200, Math.floor(text.length * ratio * 0.9));
    text = clipMiddle(text, max, Math.floor(max * 0.7), Math.floor(max * 0.25));
  }
  return text;
}

/** Takes blocks from `start` while they fit; the first block is cut to fit when it alone is too long. */
function takeChunk(blocks: readonly string[], start: number, available: number, counter: TokenCounter) {
  const chunk: string[] = [];
  let used = 0;
  let index = start;
  while (index < blocks.length) {
    let block = blocks[index] as string;
    let cost = counter.countText(block) + 2;
    if (chunk.length === 0 && cost > available) {
      block = shrinkToFit(block, available - 2, counter);
      cost = counter.countText(block) + 2;
    }
    if (chunk.length > 0 && used + cost > available) break;
    chunk.push(block);
    used += cost;
    index++;
  }
  return { turns: chunk.join('\n\n'), next: index };
}

interface FoldInput {
  readonly blocks: readonly string[];
  readonly fixed: Omit<CheckpointPromptInput, 'turns' | 'previousSummary'>;
  readonly previous: string | undefined;
  readonly chunking: Chunking;
  readonly settings: CallSettings;
  readonly signal: AbortSignal | undefined;
}

/** Sends the blocks in chunks that fit the window, each call updating the checkpoint of the ones before. */
async function fold(input: FoldInput) {
  const { blocks, chunking, settings } = input;
  let running = input.previous;
  let index = 0;
  let calls = 0;
  let requests = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  while (index < blocks.length || calls === 0) {
    const base = { ...input.fixed, ...(running === undefined ? {} : { previousSummary: running }) };
    const overhead = chunking.counter.countText(buildCheckpointPrompt({ ...base, turns: '' }));
    const available = chunking.window - chunking.reserve - overhead;
    if (available < MIN_CHUNK_TOKENS) {
      throw new SummarizerError({
        failure: 'other',
        retryable: false,
        model: settings.modelName,
        calls: requests,
        message: `${settings.modelName}: a context window of ${chunking.window} tokens cannot hold the prompt, the checkpoint and any turns`,
      });
    }
    const chunk = takeChunk(blocks, index, available, chunking.counter);
    try {
      const prompt = buildCheckpointPrompt({ ...base, turns: chunk.turns });
      const answer = await callModel(prompt, settings, input.signal, (text) =>
        checkpointAnswerProblem(text, {
          prompt,
          turns: chunk.turns,
          counter: chunking.counter,
          ...(input.fixed.maxTokens === undefined ? {} : { maxTokens: input.fixed.maxTokens }),
        }),
      );
      running = answer.text;
      requests += answer.requests;
      inputTokens += answer.inputTokens ?? 0;
      outputTokens += answer.outputTokens ?? 0;
    } catch (error) {
      throw error instanceof SummarizerError ? error.withCalls(requests + error.calls) : error;
    }
    calls++;
    index = chunk.next;
  }
  return { text: running ?? '', calls, inputTokens, outputTokens };
}

/**
 * A summarizer that asks a model (through the Vercel AI SDK) to write the checkpoint. The turns and every other
 * text are redacted before they are sent, and the answer again before it is returned. Input longer than the
 * model's `contextWindow` is folded in order: each chunk goes out with the checkpoint so far and comes back as
 * the updated checkpoint, so the result never summarizes a summary. Reasoning in the answer is removed; an
 * answer that is not a checkpoint (empty, without the template's sections, too thin, an echo of the prompt, or
 * over `maxTokens`) is a malformed response, retried and then reported, never used. Failures reject with a
 * classified {@link SummarizerError}.
 */
export function createModelSummarizer(options: ModelSummarizerOptions): Summarizer {
  const spec: ModelSpec | undefined =
    options.languageModel === undefined ? parseModelSpec(options.model) : undefined;
  const model = options.languageModel ?? createLanguageModel(spec as ModelSpec, options);
  const name = options.name ?? options.model;
  const redactor = createRedactor(options.redact ?? {});
  const redact = (text: string) => redactor.text(text).text;
  const serialize = resolveSerializeOptions(options.serialize);
  const settings: CallSettings = {
    model,
    modelName: name,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    retryDelayMs: options.retryDelayMs ?? 1000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    sleep: options.sleep ?? defaultSleep,
    redact,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
  };
  const missingKey =
    spec !== undefined &&
    requiresApiKey(spec.provider) &&
    (options.apiKey === undefined || options.apiKey === '');

  async function summarize(request: SummaryRequest, context: SummarizeContext = {}): Promise<SummaryResult> {
    if (missingKey) {
      throw new SummarizerError({
        failure: 'auth',
        retryable: false,
        model: name,
        message: `${name}: no API key was given for ${spec?.provider ?? 'the provider'}`,
      });
    }
    const messages: readonly Message[] = redactTranscriptWith({ messages: request.messages }, redactor)
      .transcript.messages;
    const names = toolNamesById(messages);
    const blocks = messages.map((message) => serializeMessage(message, serialize, names));
    const fixed = {
      targetTokens: request.targetTokens,
      ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
      ...(request.focusTopic === undefined ? {} : { focusTopic: redact(request.focusTopic) }),
      ...(request.latestUserRequest === undefined
        ? {}
        : { latestUserRequest: redact(request.latestUserRequest) }),
    };
    const chunking: Chunking = {
      window: options.contextWindow ?? DEFAULT_WINDOW,
      reserve: options.maxOutputTokens ?? Math.ceil(request.targetTokens * 1.5) + 256,
      counter: request.counter,
    };
    const previous = request.previousSummary === undefined ? undefined : redact(request.previousSummary);
    const folded = await fold({ blocks, fixed, previous, chunking, settings, signal: context.signal });
    return {
      text: folded.text,
      source: 'model',
      model: name,
      calls: folded.calls,
      ...(folded.inputTokens > 0 ? { inputTokens: folded.inputTokens } : {}),
      ...(folded.outputTokens > 0 ? { outputTokens: folded.outputTokens } : {}),
    };
  }

  return { name, kind: 'model', summarize };
}
