/** Every error code condense raises, with a one-line meaning. Codes are stable: users branch on them. */
export const ERROR_CODES = {
  INVALID_INPUT: 'the input is not a transcript condense can read',
  EMPTY_INPUT: 'the input file, standard input or directory holds nothing to work on',
  NOT_A_SESSION: 'the file is not a session log (Claude Code or condense)',
  UNKNOWN_FORMAT: 'the format could not be detected or is not supported',
  ENCODE_FAILED: 'the transcript cannot be written in the requested format',
  INVALID_OPTIONS: 'an option or configuration value is wrong',
  USAGE: 'the command line is wrong',
  IO_FAILED: 'a file could not be read or written',
  OUTPUT_REFUSED: 'the output path would overwrite an input or is not a file condense may replace',
  LISTEN_FAILED: 'the server could not listen on the requested host and port',
  TOKENIZER_FAILED: 'the tokenizer could not be loaded or failed',
  SUMMARY_FAILED: 'the summarizer failed',
  AUTH_FAILED: 'the model provider refused the credentials or quota',
  BUDGET_UNREACHABLE: 'the transcript cannot be brought under the requested budget',
  SESSION_INVALID: 'a session log is damaged beyond what can be recovered',
  UNRESOLVED_REFERENCE: 'a reference of a compacted transcript is not in the original it names',
  TIMEOUT: 'an operation ran out of time',
  ABORTED: 'an operation was cancelled',
  QUEUE_FAILED: 'the job queue (Redis) could not be reached or holds something unexpected',
  REDACT_FAILED: 'a line could not be redacted: it was left out of the output',
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
