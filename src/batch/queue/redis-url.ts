import { Redis } from 'ioredis';
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

/**
 * The BullMQ connection options for `target`. Commands wait through a lost connection (they are replayed when
 * Redis is back) instead of failing, as BullMQ requires for workers; callers watch `error` events to say so.
 */
export function bullConnection(target: RedisTarget): { url: string; maxRetriesPerRequest: null } {
  return { url: target.url, maxRetriesPerRequest: null };
}

/** A plain client for condense's own keys (results), with the same waiting behaviour. */
export function openRedis(target: RedisTarget): Redis {
  return new Redis(target.url, { maxRetriesPerRequest: null, lazyConnect: true });
}

/**
 * Connects `client` or fails with `QUEUE_FAILED` within `timeoutMs`: a wrong address must be an error at once,
 * not a silent wait.
 */
export async function connectOrFail(client: Redis, target: RedisTarget, timeoutMs = 5000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  // Connection errors are reported through the promise below; without a listener ioredis prints them.
  const quiet = () => undefined;
  client.on('error', quiet);
  try {
    await Promise.race([client.connect().then(() => client.ping()), timeout]);
  } catch (error) {
    client.disconnect();
    throw new CondenseError({
      code: 'QUEUE_FAILED',
      message: `cannot reach Redis at ${target.display}: ${(error as Error).message}`,
      hint: 'start redis-server, or check the --queue URL (host, port, password, database)',
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    client.off('error', quiet);
  }
}
