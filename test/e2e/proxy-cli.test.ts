import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCondenseHeader } from '../../src/integrations/proxy/condense-header.js';
import { type LoopbackProvider, loopbackReplies, startLoopbackProvider } from '../../src/testing.js';
import { openaiRequest, SMALL_WINDOW } from '../integrations/proxy/support.js';
import { BIN, ROOT } from '../support/cli.js';

let provider: LoopbackProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Runs `condense proxy …` from the built binary; resolves the listening URL from its first stderr line. */
function spawnProxy(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, 'proxy', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /proxy listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on('close', () => reject(new Error(`proxy exited early: ${stderr}`)));
  });
  return { child, listening, exited, stderr: () => stderr };
}

describe('condense proxy (built binary)', () => {
  it('listens, forwards a request with a one-line log, and exits 0 on SIGTERM', async () => {
    provider = await startLoopbackProvider({ script: [loopbackReplies.text('through the binary')] });
    const run = spawnProxy(['--port', '0', '--upstream', `${provider.url}/v1`, '-c', '8000']);
    const url = await run.listening;
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-do-not-log-me', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello secret body text' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-condense')).toMatch(/^passthrough; tokens=\d+/);
    expect(
      ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message
        .content,
    ).toBe('through the binary');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const log = run.stderr();
    expect(log).toMatch(/condense: POST \/v1\/chat\/completions 200 [\d.]+ms passthrough; tokens=\d+/);
    expect(log).toContain(`-> ${provider.url}/v1`);
    expect(log).not.toContain('sk-do-not-log-me');
    expect(log).not.toContain('secret body text');
  });

  it('compacts an oversized request in its compaction thread, which loads the engines from the built binary', async () => {
    provider = await startLoopbackProvider({ script: [loopbackReplies.text('compacted upstream')] });
    const run = spawnProxy(['--port', '0', '--upstream', `${provider.url}/v1`, '-c', String(SMALL_WINDOW)]);
    const url = await run.listening;
    const request = openaiRequest(120);
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(response.status).toBe(200);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header.action, run.stderr()).toBe('compacted');
    const sent = provider.requests[0]?.body as { messages: unknown[] };
    expect(sent.messages.length).toBeLessThan(request.messages.length);
    expect(sent.messages.at(-1)).toEqual(request.messages.at(-1));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('refuses a missing upstream as a usage error', async () => {
    const run = spawnProxy(['--port', '0']);
    run.listening.catch(() => undefined);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('--upstream');
  });
});
