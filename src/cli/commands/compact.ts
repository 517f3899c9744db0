import { Option } from 'commander';
import type { DocumentEntry } from '../../codecs/document.js';
import { encodeDocument } from '../../codecs/registry.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import { createCompressor } from '../../engines/compressor/create-compressor.js';
import { describeCompaction } from '../../engines/feedback.js';
import type { FormatName } from '../../model/format.js';
import { stripOrigins } from '../../model/origins.js';
import type { Transcript } from '../../model/transcript.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { modelSummarizerFromFlag } from '../models.js';
import { formatOption, jsonOption, outOption, parsePositiveInteger, parseRatio } from '../options.js';
import { writeOutput } from '../output.js';
import type { CommandRegistrar } from '../program.js';
import { tokenCounterFromFlag } from '../tokenizer.js';

interface CompactFlags {
  readonly engine: 'compressor';
  readonly format?: FormatName;
  readonly contextLength?: number;
  readonly threshold?: number;
  readonly focus?: string;
  readonly model?: string;
  readonly summaryModel?: string;
  readonly baseUrl?: string;
  readonly tokenizer?: string;
  readonly force?: boolean;
  readonly out?: string;
  readonly json?: boolean;
}

/** `condense compact <file>`: a smaller, provider-valid transcript in the same format, and what was done. */
export const registerCompact: CommandRegistrar = (program, context, state) => {
  program
    .command('compact')
    .description(
      'compact a transcript: prune old tool output, fold the middle into a checkpoint, keep the latest request',
    )
    .argument('<file>', 'transcript file (any supported format; - for standard input)')
    .addOption(
      new Option('-e, --engine <name>', 'compaction engine').choices(['compressor']).default('compressor'),
    )
    .addOption(formatOption())
    .option(
      '-c, --context-length <tokens>',
      'context window of the agent model',
      parsePositiveInteger('--context-length'),
    )
    .option(
      '--threshold <ratio>',
      'share of the window at which compaction triggers (default 0.5, at least 0.75 below 512K)',
      parseRatio('--threshold'),
    )
    .option('--focus <text>', 'topic that gets most of the checkpoint')
    .option('--model <spec>', 'summarize with a model: openai:<id>, anthropic:<id>, openai-compatible:<id>')
    .option('--summary-model <spec>', 'a cheaper model for checkpoints, falling back to --model')
    .option(
      '--base-url <url>',
      'API base URL for openai-compatible models (OpenRouter, vLLM, llama.cpp, Ollama)',
    )
    .option(
      '--tokenizer <name>',
      'also report exact token counts: o200k_base, cl100k_base, a model name or a tokenizer.json path',
    )
    .option('--force', 'compact now even below the threshold')
    .addOption(outOption())
    .addOption(jsonOption('print { report, transcript } as JSON instead of the compacted file'))
    .action(async (file: string, flags: CompactFlags) => {
      const { document } = await loadInput(context, file, flags.format);
      const exactCounter =
        flags.tokenizer === undefined ? undefined : await tokenCounterFromFlag(context, flags.tokenizer);
      const results: { transcript: Transcript; report: CompactionReport }[] = [];
      const entries: DocumentEntry[] = [];
      for (const entry of document.entries) {
        if (entry.kind !== 'transcript') {
          entries.push(entry);
          continue;
        }
        const result = await compactOne(entry.transcript, flags, exactCounter);
        results.push(result);
        entries.push({ ...entry, transcript: result.transcript });
      }
      if (flags.json === true) {
        const payload = results.map((result) => ({
          report: result.report,
          transcript: stripOrigins(result.transcript),
        }));
        const body = payload.length === 1 ? payload[0] : { format: document.format, results: payload };
        await writeOutput(context, `${JSON.stringify(body, null, 2)}\n`, { out: flags.out, inputs: [file] });
      } else {
        await writeOutput(context, encodeDocument({ ...document, entries }), {
          out: flags.out,
          inputs: [file],
        });
      }
      context.stderr(feedback(results.map((result) => result.report)));
      state.exitCode = results.some((result) => result.report.aborted) ? EXIT.failure : EXIT.ok;
    });

  async function compactOne(
    transcript: Transcript,
    flags: CompactFlags,
    exactCounter: TokenCounter | undefined,
  ): Promise<{ transcript: Transcript; report: CompactionReport }> {
    const engine = createCompressor({
      ...(flags.contextLength === undefined ? {} : { contextLength: flags.contextLength }),
      ...(flags.threshold === undefined ? {} : { thresholdPercent: flags.threshold }),
      ...(flags.model === undefined
        ? {}
        : { model: modelSummarizerFromFlag(context, flags.model, flags.baseUrl) }),
      ...(flags.summaryModel === undefined
        ? {}
        : { summaryModel: modelSummarizerFromFlag(context, flags.summaryModel, flags.baseUrl) }),
      ...(exactCounter === undefined ? {} : { exactCounter }),
    });
    return engine.compress(transcript, {
      force: flags.force === true,
      ...(flags.focus === undefined ? {} : { focusTopic: flags.focus }),
    });
  }
};

/** The lines printed to standard error after compaction (one block per transcript, at most ten). */
function feedback(reports: readonly CompactionReport[]): string {
  const lines: string[] = [];
  for (const [index, report] of reports.slice(0, 10).entries()) {
    const described = describeCompaction(report);
    const prefix = reports.length > 1 ? `#${index} ` : '';
    lines.push(`${prefix}${described.headline}`, `${prefix}${described.tokenLine}`);
    if (report.reason !== undefined && (described.noop || report.aborted))
      lines.push(`${prefix}${report.reason}`);
    if (!described.noop && !report.aborted) {
      lines.push(
        `${prefix}checkpoint: ${report.summary.source}, ${report.dropped} message(s) folded; pruned: ${report.pruning.digested} digested, ${report.pruning.deduplicated} deduplicated, ${report.pruning.argumentsShrunk} arguments shrunk, ${report.pruning.imagesStripped} images stripped`,
      );
    }
    if (described.note !== undefined) lines.push(`${prefix}${described.note}`);
  }
  if (reports.length > 10) lines.push(`… and ${reports.length - 10} more transcripts`);
  return `${lines.map((line) => `condense: ${line}`).join('\n')}\n`;
}
