import { Option } from 'commander';
import type { ReportFlags } from '../actions/report.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { transcriptEngineCommand } from '../engine-flags.js';

/**
 * `condense report <file>`: compacts every transcript of the file in memory (forced unless `--no-force`) and
 * writes one self-contained HTML page showing before and after side by side. The input is never changed.
 */
export const registerReport: CommandRegistrar = (program, context, state) => {
  transcriptEngineCommand(
    program,
    'report',
    'write a self-contained HTML page showing what compaction does to a transcript: before and after side by side',
  )
    .option('--no-force', 'respect the threshold (default: preview a forced compaction)')
    .addOption(
      new Option(
        '-o, --out <file>',
        'where to write the page, atomically (- for standard output; default: <input name>.report.html here)',
      ),
    )
    .action(async (file: string, flags: ReportFlags) =>
      (await import('../actions/report.js')).runReport(context, state, file, flags),
    );
};
