import { Option } from 'commander';
import { CondenseError } from '../errors/condense-error.js';
import { FORMAT_NAMES } from '../model/format.js';

/** `--format F`: read the input as this format instead of detecting it. */
export function formatOption(): Option {
  return new Option('-f, --format <format>', 'read the input as this format instead of detecting it').choices(
    FORMAT_NAMES,
  );
}

/** `-o, --out FILE`: where to write the result (standard output when absent). */
export function outOption(): Option {
  return new Option(
    '-o, --out <file>',
    'write the result to this file (atomically) instead of standard output',
  );
}

/** `--json`: machine-readable output. */
export function jsonOption(description = 'print machine-readable JSON'): Option {
  return new Option('--json', description);
}

/** Parses a positive integer option value, or throws a usage error naming the option. */
export function parsePositiveInteger(name: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value.replaceAll('_', ''));
    if (!Number.isInteger(parsed) || parsed <= 0) {
      throw new CondenseError({
        code: 'USAGE',
        message: `${name} must be a positive integer, got "${value}"`,
      });
    }
    return parsed;
  };
}

/** Parses a non-negative integer option value, or throws a usage error naming the option. */
export function parseNonNegativeInteger(name: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value.replaceAll('_', ''));
    if (value.trim() === '' || !Number.isInteger(parsed) || parsed < 0) {
      throw new CondenseError({
        code: 'USAGE',
        message: `${name} must be a non-negative integer, got "${value}"`,
      });
    }
    return parsed;
  };
}

/** Parses a positive number option value (decimals allowed), or throws a usage error naming the option. */
export function parsePositiveNumber(name: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value.replaceAll('_', ''));
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) {
      throw new CondenseError({
        code: 'USAGE',
        message: `${name} must be a positive number, got "${value}"`,
      });
    }
    return parsed;
  };
}

/** Parses a ratio in (0, 1], or throws a usage error naming the option. */
export function parseRatio(name: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 1) {
      throw new CondenseError({
        code: 'USAGE',
        message: `${name} must be a number in (0, 1], got "${value}"`,
      });
    }
    return parsed;
  };
}
