/**
 * Everything a command may touch of the outside world. Only `main.ts` builds one from `process`; tests build
 * their own, so every command runs without a process.
 */
export interface CliContext {
  readonly stdout: (text: string) => void;
  /**
   * Writes to standard output and resolves once it can take more (at once, or when a reader behind a pipe has
   * caught up), for outputs written in many chunks. Absent in tests and embeddings: `stdout` is used instead.
   */
  readonly stdoutPaced?: (text: string) => Promise<void>;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Standard error is an interactive terminal (progress bars, colours). */
  readonly stderrIsTTY: boolean;
  /** Terminal width for tables. */
  readonly columns: number;
  /** Reads standard input to the end (for `-` as a file name). */
  readonly readStdin: () => Promise<string>;
  /**
   * Resolves when the user asks the process to stop (SIGINT, SIGTERM), for long-running commands such as
   * `proxy`. Absent in tests and embeddings: long-running commands then stop right after starting.
   */
  readonly untilStopped?: () => Promise<void>;
  /** This process's id, to name a queue worker (absent in tests and embeddings). */
  readonly pid?: number;
}

/** Exit codes of every command: 0 done, 1 bad input or failed work, 2 wrong usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** An exit code. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
