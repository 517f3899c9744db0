import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';

/** One input file and where its compressed copy goes. */
export interface InputFile {
  /** Absolute path of the input. */
  readonly input: string;
  /** File name, shared by the input and its output. */
  readonly name: string;
  /** Absolute path of the output. */
  readonly output: string;
}

/** Inputs resolved to files, and the output directory. */
export interface ResolvedInputs {
  readonly outputDir: string;
  readonly files: readonly InputFile[];
}

/** Options of {@link resolveInputFiles}. */
export interface ResolveInputsOptions {
  readonly cwd: string;
  /** Output directory. @default `<dir><suffix>` for a directory, `<dir>/<stem><suffix>` for a file */
  readonly out?: string;
  /** @default '_compressed' */
  readonly suffix?: string;
}

async function kindOf(path: string): Promise<'file' | 'directory'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    throw new CondenseError({
      code: 'IO_FAILED',
      message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (error as Error).message}`,
      hint: 'pass JSONL files or directories of *.jsonl files',
      location: { file: path },
      cause: error,
    });
  }
}

function defaultOutput(path: string, kind: 'file' | 'directory', suffix: string): string {
  if (kind === 'directory') return `${path.replace(/[\\/]+$/, '')}${suffix}`;
  return join(dirname(path), `${basename(path, extname(path))}${suffix}`);
}

/**
 * Expands the inputs (files, and directories of `*.jsonl` files, sorted) into files with their output paths:
 * the same name in the output directory. Several inputs need `out`; two inputs with one name, and an output
 * directory that holds an input, are refused (`USAGE`) — condense never overwrites what it was given.
 */
export async function resolveInputFiles(
  inputs: readonly string[],
  options: ResolveInputsOptions,
): Promise<ResolvedInputs> {
  if (inputs.length === 0) throw new CondenseError({ code: 'USAGE', message: 'no input given' });
  const suffix = options.suffix ?? '_compressed';
  const found: string[] = [];
  let outputDir = options.out === undefined ? undefined : resolve(options.cwd, options.out);
  for (const raw of inputs) {
    const path = resolve(options.cwd, raw);
    const kind = await kindOf(path);
    if (kind === 'directory') {
      const names = (await readdir(path))
        .filter((name) => name.endsWith('.jsonl') || name.endsWith('.parquet'))
        .sort();
      if (names.length === 0) {
        throw new CondenseError({
          code: 'USAGE',
          message: `no *.jsonl or *.parquet files in ${raw}`,
          location: { file: path },
        });
      }
      for (const name of names) found.push(join(path, name));
    } else found.push(path);
    if (outputDir === undefined && inputs.length === 1) outputDir = defaultOutput(path, kind, suffix);
  }
  if (outputDir === undefined) {
    throw new CondenseError({
      code: 'USAGE',
      message: 'several inputs need an output directory',
      hint: 'pass -o <dir>',
    });
  }
  const dir = outputDir;
  const byName = new Map<string, string>();
  const files: InputFile[] = [];
  for (const input of found) {
    const name = basename(input);
    const other = byName.get(name);
    if (other !== undefined) {
      throw new CondenseError({
        code: 'USAGE',
        message: `${other} and ${input} would both be written to ${join(dir, name)}`,
        hint: 'compress them in separate runs, or rename one',
      });
    }
    if (dirname(input) === dir) {
      throw new CondenseError({
        code: 'USAGE',
        message: `the output directory ${dir} holds the input ${name}`,
        hint: 'choose another -o directory',
      });
    }
    byName.set(name, input);
    files.push({ input, name, output: join(dir, name) });
  }
  return { outputDir: dir, files };
}
