/** A pattern of the user's own, from configuration. */
export interface UserPattern {
  /** Names the findings: their kind is `custom:<name>`. */
  readonly name: string;
  /**
   * A regular expression (or its source). When it has a named group `secret`, only that group is masked,
   * else the whole match. Its running time is the user's responsibility: built-in rules are linear, a user
   * pattern with nested quantifiers may not be.
   */
  readonly pattern: RegExp | string;
}

/** Options of every redaction function. */
export interface RedactOptions {
  /**
   * The text is source code: skip the name-based passes (assignments, quoted fields, `--secret` flags) that
   * fire on identifiers such as `password = request.form["password"]`, and keep the high-confidence ones
   * (vendor tokens, private keys, JWTs, headers, URL credentials, connection strings).
   * @default false
   */
  readonly codeFile?: boolean;
  /** Extra patterns to mask. @default [] */
  readonly patterns?: readonly UserPattern[];
  /**
   * Values never masked: a string allows a secret equal to it, a RegExp a secret it matches (documentation
   * keys such as `AKIAIOSFODNN7EXAMPLE`, a project's public test token).
   * @default []
   */
  readonly allow?: readonly (string | RegExp)[];
}
