import { Redis } from 'ioredis';
import { CondenseError } from '../../errors/condense-error.js';
import { checkQueueName, DEFAULT_QUEUE_NAME, parseRedisUrl, type RedisTarget } from './redis-url.js';

/**
 * The BullMQ connection options for `target`. Commands wait through a lost connection (they are replayed when
 * Redis is back) instead of failing, as BullMQ requires for workers; callers watch `error` events to say so.
 */
export function bullConnection(target: RedisTarget): { url: string; maxRetriesPerRequest: null } {
  return { url: target.url, maxRetriesPerRequest: null };
}

/** A plain client for condense's own keys (results), with the same waiting behaviour. */
export function openRedis(target: RedisTarget): Redis {
  return new Redis(target.url, { maxRetriesPerRequest: null });
}

/**
 * Pings Redis once, with no reconnection, or fails with `QUEUE_FAILED` within `timeoutMs`: a wrong address must
 * be an error at once, not a silent wait.
 */
export async function probeRedis(target: RedisTarget, timeoutMs = 5000): Promise<void> {
  const probe = new Redis(target.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  // The failure is reported through the promise below; without a listener ioredis prints it.
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new CondenseError({
      code: 'QUEUE_FAILED',
      message: `cannot reach Redis at ${target.display}: ${(error as Error).message}`,
      hint: 'start redis-server, or check the --queue URL (host, port, password, database)',
      cause: error,
    });
  } finally {
    probe.disconnect();
  }
}

/** A queue's Redis, connected: the checked target and name, a client for condense's keys, a problem reporter. */
export interface QueueRedis {
  readonly target: RedisTarget;
  readonly queueName: string;
  readonly redis: Redis;
  /** Reports a connection problem, at most once every ten seconds (a down Redis fails every command). */
  readonly problem: (error: Error) => void;
}

/**
 * Checks the URL and queue name, pings Redis once (failing at once when it cannot be reached) and opens a client
 * for condense's own keys whose errors go to `report`, throttled.
 */
export async function connectQueueRedis(
  url: string,
  queueName: string | undefined,
  report: (target: RedisTarget, error: Error) => void,
): Promise<QueueRedis> {
  const target = parseRedisUrl(url);
  const name = checkQueueName(queueName ?? DEFAULT_QUEUE_NAME);
  await probeRedis(target);
  const redis = openRedis(target);
  let lastProblem = 0;
  const problem = (error: Error) => {
    if (Date.now() - lastProblem < 10_000) return;
    lastProblem = Date.now();
    report(target, error);
  };
  redis.on('error', problem);
  return { target, queueName: name, redis, problem };
}
