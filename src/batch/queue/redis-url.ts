import { CondenseError } from '../../errors/condense-error.js';

/** A Redis server as `--queue` names it. */
export interface RedisTarget {
  /** The URL as given: `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  readonly url: string;
  /** The URL with any password masked, for logs and messages. */
  readonly display: string;
}

/** The BullMQ queue condense uses when none is named. */
export const DEFAULT_QUEUE_NAME = 'condense-trajectories';

/**
 * Checks a `--queue` value and masks its password for display. Throws `USAGE` for anything but a
 * `redis://` or `rediss://` URL with a host.
 */
export function parseRedisUrl(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl(url);
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '')
    throw badUrl(url);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw badUrl(url);
  if (parsed.password !== '') parsed.password = '***';
  return { url, display: parsed.toString() };
}

/** Checks a queue name: BullMQ keys are separated by `:`, so a name may not hold one. */
export function checkQueueName(name: string): string {
  if (name === '' || name.includes(':')) {
    throw new CondenseError({
      code: 'USAGE',
      message: `queue name "${name}" is empty or holds a ":"`,
      hint: `use letters, digits, - and _ (default ${DEFAULT_QUEUE_NAME})`,
    });
  }
  return name;
}

function badUrl(url: string): CondenseError {
  return new CondenseError({
    code: 'USAGE',
    message: `--queue must be a Redis URL, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`,
    hint: 'e.g. redis://127.0.0.1:6379 or redis://:password@redis.internal:6379/2',
  });
}
