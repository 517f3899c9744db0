/**
 * A third-party context engine, as docs/architecture.md §7 describes: a compactor that replaces old tool
 * outputs with a one-line placeholder, made an engine by `governEngine`, which supplies the threshold, the
 * window check, usage learning and the anti-thrash pauses. It passes `runEngineConformance`
 * (test/engines/conformance.test.ts). In your own code, import from 'condense' instead of '../../src/index.js'.
 */
import {
  buildProvenance,
  type CompactionReport,
  type Compactor,
  type CompactorPass,
  type ContextEngine,
  computeThreshold,
  createRoughCounter,
  governEngine,
  type Message,
  NO_COMPRESSOR_DETAILS,
  type Transcript,
} from '../../src/index.js';

/** Options of the example engine. */
export interface ElideOutputsOptions {
  readonly contextLength?: number;
  /** Tool messages at the end left as they are. @default 4 */
  readonly keepRecent?: number;
}

/** Tool results before the last `keepRecent` tool messages, replaced by a placeholder (same call ids). */
function elide(messages: readonly Message[], keepRecent: number): readonly Message[] {
  const toolIndices = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
  const old = new Set(toolIndices.slice(0, Math.max(0, toolIndices.length - keepRecent)));
  let changed = false;
  const out = messages.map((message, index) => {
    if (!old.has(index)) return message;
    let elided = false;
    const parts = message.parts.map((part) => {
      if (part.type !== 'tool-result') return part;
      const size = part.content.reduce((sum, item) => sum + (item.type === 'text' ? item.text.length : 0), 0);
      const placeholder = `[output elided: ${size} chars]`;
      if (
        part.content.length === 1 &&
        part.content[0]?.type === 'text' &&
        part.content[0].text === placeholder
      )
        return part;
      elided = true;
      return { ...part, content: [{ type: 'text' as const, text: placeholder }] };
    });
    if (!elided) return message;
    changed = true;
    return { ...message, parts };
  });
  return changed ? out : messages;
}

/** The compactor: all it decides is how to shrink; `governEngine` decides when. */
export function elideOutputsCompactor(options: ElideOutputsOptions = {}): Compactor {
  const counter = createRoughCounter();
  const keepRecent = options.keepRecent ?? 4;
  let contextLength = options.contextLength ?? 128_000;
  let maxOutputTokens: number | undefined;
  return {
    name: 'elide-outputs',
    counter,
    window: () => ({
      contextLength,
      maxOutputTokens,
      thresholdTokens: computeThreshold({
        contextLength,
        thresholdPercent: 0.7,
        minimumTokens: 0,
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      }),
    }),
    updateModel(model) {
      contextLength = model.contextLength;
      maxOutputTokens = model.maxOutputTokens ?? maxOutputTokens;
    },
    hasContentToCompress: (transcript) => elide(transcript.messages, keepRecent) !== transcript.messages,
    async compact(transcript: Transcript, pass: CompactorPass) {
      pass.signal?.throwIfAborted();
      const output = elide(transcript.messages, keepRecent);
      const before = counter.countTranscript(transcript);
      const after = output === transcript.messages ? before : counter.countTranscript({ messages: output });
      const saved = before - after;
      const report: CompactionReport = {
        engine: 'elide-outputs',
        tokensBefore: { rough: before },
        tokensAfter: { rough: after },
        messagesBefore: transcript.messages.length,
        messagesAfter: output.length,
        ...NO_COMPRESSOR_DETAILS,
        dropped: 0,
        errors: [],
        savings: { tokens: saved, percent: before === 0 ? 0 : (100 * saved) / before },
        madeProgress: saved > 0,
        aborted: false,
        ...(output === transcript.messages ? { reason: 'no old tool output left to elide' } : {}),
        notes: [],
        // Output message i stands for input message i: the report can say which were rewritten, and how.
        provenance: buildProvenance({
          input: transcript.messages,
          output,
          sources: output.map((_, index) => [index]),
          removed: () => ({ status: 'dropped', reason: 'no message is removed by this engine' }),
        }),
      };
      return {
        transcript: output === transcript.messages ? transcript : { ...transcript, messages: output },
        report,
      };
    },
  };
}

/** The engine a user registers: `createEngineRegistry().with('elide-outputs', createElideOutputsEngine)`. */
export function createElideOutputsEngine(options: ElideOutputsOptions = {}): ContextEngine {
  return governEngine(elideOutputsCompactor(options));
}
