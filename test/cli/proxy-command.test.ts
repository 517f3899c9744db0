import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { startLoopbackProvider } from '../../src/testing.js';

async function runProxy(args: readonly string[], untilStopped?: () => Promise<void>) {
  let stderr = '';
  const code = await runCli(['proxy', ...args], {
    stdout: () => {},
    stderr: (text) => (stderr += text),
    env: {},
    cwd: process.cwd(),
    stderrIsTTY: false,
    columns: 120,
    readStdin: async () => '',
    ...(untilStopped === undefined ? {} : { untilStopped }),
  });
  return { code, stderr };
}

describe('condense proxy (in process)', () => {
  it('warns when listening beyond loopback', async () => {
    const provider = await startLoopbackProvider({ script: [] });
    try {
      const run = await runProxy(['--upstream', provider.url, '--port', '0', '--host', '0.0.0.0']);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('warning: listening on 0.0.0.0');
      expect(run.stderr).toMatch(/proxy listening on http:\/\/0\.0\.0\.0:\d+ -> http/);
    } finally {
      await provider.close();
    }
  });

  it('serves until asked to stop', async () => {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = runProxy(['--upstream', 'http://127.0.0.1:9', '--port', '0'], () => stopped);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    const run = await running;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('proxy stopped');
  });

  it.each([
    [['--upstream', 'ftp://example.com'], 'upstream must be http or https'],
    [['--upstream', 'http://x', '-e', 'rules', '--model', 'openai:gpt-4o'], '--model does not apply'],
    [['--upstream', 'http://x', '--port', '70000'], 'port must be'],
  ])('refuses bad flags: %j', async (args, message) => {
    const run = await runProxy([...args, ...(args.includes('--port') ? [] : ['--port', '0'])]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
