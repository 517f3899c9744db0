import { getCodec } from '../src/codecs/registry.js';
import { startProxy } from '../src/integrations/proxy/server.js';
import { buildCodingSession } from '../src/testing/transcript-builders.js';
import { loopbackReplies, startLoopbackProvider } from '../src/testing.js';
import { type BenchRow, type BenchSuite, round } from './harness.js';

const SUITE = 'proxy';
/** Requests per case (a tenth for fresh compactions, which are CPU-bound) and requests in flight at once. */
const REQUESTS = 2_000;
const CONCURRENCY = 16;
/** A 120-step coding session (~7,200 tokens) crosses the compressor's threshold at this window. */
const CONTEXT_LENGTH = 8_000;

interface Measured {
  readonly seconds: number;
  readonly latencies: readonly number[];
}

function requestBody(steps: number, task?: string): string {
  const transcript = buildCodingSession({ steps, ...(task === undefined ? {} : { task }) });
  const { messages } = getCodec('openai').encode(transcript) as { messages: unknown[] };
  return JSON.stringify({ model: 'bench-model', messages });
}

/** Sends `bodies` (cycled to `count`) to `url` with CONCURRENCY requests in flight; every answer must be 200. */
async function load(
  url: string,
  count: number,
  body: (index: number) => string,
  concurrency = CONCURRENCY,
): Promise<Measured> {
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const start = process.hrtime.bigint();
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
        body: body(index),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, latencies };
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

function row(label: string, measured: Measured, direct?: Measured): BenchRow {
  const p50 = percentile(measured.latencies, 0.5);
  const p99 = percentile(measured.latencies, 0.99);
  return {
    suite: SUITE,
    case: label,
    figures: {
      requests: measured.latencies.length,
      'req/s': round(measured.latencies.length / measured.seconds, 0),
      'p50 ms': round(p50, 2),
      'p99 ms': round(p99, 2),
      'added p50 ms': direct === undefined ? '' : round(p50 - percentile(direct.latencies, 0.5), 2),
      'added p99 ms': direct === undefined ? '' : round(p99 - percentile(direct.latencies, 0.99), 2),
    },
  };
}

const suite: BenchSuite = {
  name: `proxy: loopback provider direct vs through condense proxy (concurrency ${CONCURRENCY})`,
  async run() {
    const provider = await startLoopbackProvider({ script: () => loopbackReplies.text('ok') });
    const proxy = await startProxy({
      upstream: `${provider.url}/v1`,
      port: 0,
      engineOptions: { contextLength: CONTEXT_LENGTH },
    });
    try {
      const small = requestBody(2);
      const large = requestBody(120);
      const freshCount = REQUESTS / 10;
      const fresh = Array.from({ length: freshCount }, (_, index) =>
        requestBody(120, `Bench task ${index}.`),
      );
      // Warm both paths (JIT, connection pools) before measuring.
      await load(provider.url, 200, () => small);
      await load(proxy.url, 200, () => small);
      const rows: BenchRow[] = [];
      const smallDirect = await load(provider.url, REQUESTS, () => small);
      rows.push(row(`small body (${small.length} B) · direct`, smallDirect));
      rows.push(
        row('small body · proxy, passthrough', await load(proxy.url, REQUESTS, () => small), smallDirect),
      );
      const largeDirect = await load(provider.url, REQUESTS, () => large);
      rows.push(row(`large body (${large.length} B, ~7.2k tokens) · direct`, largeDirect));
      rows.push(
        row(
          'large body · proxy, compacted once then reused',
          await load(proxy.url, REQUESTS, () => large),
          largeDirect,
        ),
      );
      rows.push(
        row(
          `large body · proxy, a fresh compaction per request (${freshCount} conversations)`,
          await load(proxy.url, freshCount, (index) => fresh[index] ?? large),
          largeDirect,
        ),
      );
      // One request at a time: the proxy's own cost without queueing behind 15 others on the same event loop.
      const sequential = REQUESTS / 4;
      const smallOne = await load(provider.url, sequential, () => small, 1);
      rows.push(row(`small body · direct, one at a time`, smallOne));
      rows.push(
        row('small body · proxy, one at a time', await load(proxy.url, sequential, () => small, 1), smallOne),
      );
      const largeOne = await load(provider.url, sequential, () => large, 1);
      rows.push(row(`large body · direct, one at a time`, largeOne));
      rows.push(
        row(
          'large body · proxy reused, one at a time',
          await load(proxy.url, sequential, () => large, 1),
          largeOne,
        ),
      );
      return rows;
    } finally {
      await proxy.close();
      await provider.close();
    }
  },
};

export default suite;
