import { Option } from 'commander';
import { CondenseError } from '../../errors/condense-error.js';
import type { TrajectoriesFlags } from '../actions/trajectories.js';
import type { CommandRegistrar } from '../command-registrar.js';
import {
  formatOption,
  jsonOption,
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
} from '../options.js';
import { addQueueOptions } from './trajectories-queue.js';

function parsePercent(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 100) {
    throw new CondenseError({
      code: 'USAGE',
      message: `--sample-percent must be in (0, 100], got "${value}"`,
    });
  }
  return parsed;
}

/** `condense trajectories <input…>`: compress a dataset of finished trajectories to a token budget. */
export const registerTrajectories: CommandRegistrar = (program, context, state) => {
  const command = program
    .command('trajectories')
    .description(
      "compress finished agent trajectories (JSONL or Parquet datasets: ShareGPT as Hermes writes it, OpenAI messages…) to a token budget, Hermes' way: protected head and tail, the middle summarized; one output file per input, plus compression_metrics.json",
    )
    .argument('<input...>', 'JSONL/JSON/Parquet files, or directories of *.jsonl and *.parquet files')
    .option('-o, --out <dir>', 'output directory (default: <input>_compressed)')
    .option('--config <file>', 'YAML configuration and domain policy (see examples/threat-hunt-policy.yaml)')
    .option(
      '--target <tokens>',
      'token budget per trajectory (default 15250)',
      parsePositiveInteger('--target'),
    )
    .option(
      '--summary-target <tokens>',
      'length of the summary turn (default 750)',
      parsePositiveInteger('--summary-target'),
    )
    .option(
      '--protect-last <turns>',
      'last turns kept verbatim (default 4)',
      parseNonNegativeInteger('--protect-last'),
    )
    .option(
      '--tokenizer <name>',
      'o200k_base (default), cl100k_base, a model name, a tokenizer.json path, or rough',
    )
    .option(
      '--model <spec>',
      'summarize with a model: openai:<id>, anthropic:<id>, openai-compatible:<id> (default: extractive)',
    )
    .option('--base-url <url>', 'API base URL for openai-compatible models')
    .option(
      '--concurrency <n>',
      'trajectories in flight at once, bounding model calls (default 50; with --queue: entries on the queue, default 1000)',
      parsePositiveInteger('--concurrency'),
    )
    .option(
      '--timeout <seconds>',
      'seconds allowed per trajectory, decimals allowed (default 300)',
      parsePositiveNumber('--timeout'),
    )
    .option(
      '--workers <n>',
      'worker threads for the CPU work, 0 for none (default: cores, at most 4)',
      parseNonNegativeInteger('--workers'),
    )
    .addOption(
      new Option(
        '--strategy <name>',
        'when one pass is not enough: report it, or digest tool outputs and retry',
      ).choices(['single-pass', 'escalate']),
    )
    .addOption(
      new Option(
        '--style <name>',
        'summary marker: hermes ([CONTEXT SUMMARY]:) or condense (checkpoint header)',
      ).choices(['hermes', 'condense']),
    )
    .addOption(formatOption())
    .option('--sample-percent <p>', 'keep a seeded sample of this share of each file (1-100)', parsePercent)
    .option('--seed <seed>', 'seed of the sample (default 42)')
    .option('--no-resume', 'redo files an earlier run already finished')
    .option('--no-metrics', 'do not add compression_metrics to compressed entries')
    .option('--dry-run', 'count and plan only: no model call, nothing written')
    .addOption(jsonOption('print the aggregate metrics as JSON on standard output'));
  addQueueOptions(command).action(async (inputs: string[], flags: TrajectoriesFlags) =>
    (await import('../actions/trajectories.js')).runTrajectoriesCommand(context, state, inputs, flags),
  );
};
