import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** The `redis-server` binary: `REDIS_SERVER`, or the one on the PATH (Debian's `redis-server` package). */
export const REDIS_SERVER: string | undefined =
  process.env['REDIS_SERVER'] ??
  (spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim() || undefined);

/** Why queue suites are skipped on this machine, or undefined when they run. */
export const REDIS_SKIP_REASON =
  REDIS_SERVER === undefined
    ? 'redis-server is not installed (apt-get install redis-server, or set REDIS_SERVER): queue tests skipped'
    : undefined;

if (REDIS_SKIP_REASON !== undefined) console.warn(`condense tests: ${REDIS_SKIP_REASON}`);

/** A redis-server of a test's own, on a free loopback port, without persistence. */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (its data is gone) and starts a fresh one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts redis-server on a free 127.0.0.1 port; the caller must `stop()` it. */
export async function startRedis(): Promise<TestRedis> {
  if (REDIS_SERVER === undefined) throw new Error(REDIS_SKIP_REASON);
  const binary = REDIS_SERVER;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'condense-redis-'));
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    await waitForPing(port);
  };
  const halt = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
