import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';
import { assertNotAnInput, resolveOutputTarget } from '../io/output-target.js';

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
  /** Names of other files the run writes into the output directory (metrics, state): no input may be named so. */
  readonly reserved?: readonly string[];
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
 * The real path of a directory that may not exist yet: its deepest existing ancestor resolved (links
 * followed), with the missing rest appended.
 */
export async function realDirectory(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const parent = dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Refuses an output directory that holds an input (the same directory however it is reached: links, `..`), and
 * an output file that already leads to an input (a link in the output directory).
 */
async function checkOutputs(
  dir: string,
  files: readonly InputFile[],
  reserved: readonly string[],
): Promise<void> {
  const realDir = await realDirectory(dir);
  const inputs = files.map((file) => file.input);
  for (const name of reserved) {
    const clash = files.find((file) => file.name === name);
    if (clash !== undefined) {
      throw new CondenseError({
        code: 'OUTPUT_REFUSED',
        message: `the input ${clash.input} has the name of the run's own ${name}, which would overwrite its output`,
        hint: 'rename the input, or set another metrics file name in the configuration',
        location: { file: clash.input },
      });
    }
    const target = await resolveOutputTarget(join(realDir, name)).catch(() => undefined);
    if (target !== undefined) await assertNotAnInput(target, inputs);
  }
  for (const file of files) {
    const holders = [
      await realDirectory(dirname(file.input)),
      dirname(await realpath(file.input).catch(() => file.input)),
    ];
    if (holders.includes(realDir)) {
      throw new CondenseError({
        code: 'OUTPUT_REFUSED',
        message: `the output directory ${dir} holds the input ${file.input}${realDir === dir ? '' : ` (${dir} leads to ${realDir})`}`,
        hint: 'choose another -o directory; condense never overwrites what it was given',
        location: { file: dir },
      });
    }
    const target = await resolveOutputTarget(join(realDir, file.name)).catch(() => undefined);
    if (target !== undefined) await assertNotAnInput(target, inputs);
  }
}

/**
 * Expands the inputs (files, and directories of `*.jsonl` files, sorted) into files with their output paths:
 * the same name in the output directory. Several inputs need `out`, and two inputs with one name are refused
 * (`USAGE`); an output directory that holds an input, or an output that leads to one (`OUTPUT_REFUSED`), too —
 * compared by real paths, so links do not hide them: condense never overwrites what it was given.
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
          code: 'EMPTY_INPUT',
          message: `no *.jsonl or *.parquet files in ${raw}`,
          hint: 'pass JSONL or Parquet dataset files, or a directory holding some',
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
    byName.set(name, input);
    files.push({ input, name, output: join(dir, name) });
  }
  await checkOutputs(dir, files, options.reserved ?? []);
  return { outputDir: dir, files };
}
