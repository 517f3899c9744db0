import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, runBinary } from '../support/cli.js';

const run = promisify(execFile);

async function evaluate(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  return stdout;
}

describe('the published package', () => {
  it('exposes the core, node and testing entry points by name', async () => {
    const out = await evaluate(`
      const core = await import('condense');
      const node = await import('condense/node');
      const testing = await import('condense/testing');
      console.log(JSON.stringify([typeof core.compact, typeof core.decodeDocument, typeof core.verifyTranscript,
        typeof node.readTranscriptFile, typeof testing.startLoopbackProvider]));
    `);
    expect(JSON.parse(out)).toEqual(['function', 'function', 'function', 'function', 'function']);
  });

  it('runs the README library example', async () => {
    const out = await evaluate(`
      import { readFileSync } from 'node:fs';
      import { compact, decodeDocument, documentTranscripts, verifyTranscript } from 'condense';
      const text = readFileSync('examples/coding-agent-session.openai.json', 'utf8');
      const [transcript] = documentTranscripts(decodeDocument(text));
      const { transcript: smaller, report } = await compact(transcript, { contextLength: 32_000 });
      console.log(JSON.stringify({ saved: report.savings.tokens, violations: verifyTranscript(smaller, { provider: 'anthropic' }) }));
    `);
    const result = JSON.parse(out) as { saved: number; violations: unknown[] };
    expect(result.saved).toBeGreaterThan(0);
    expect(result.violations).toEqual([]);
  });

  it('prints help for the binary and every command', async () => {
    const main = await runBinary(['--help']);
    expect(main.code).toBe(0);
    const commands = [...main.stdout.matchAll(/^ {2}(\w+)/gm)]
      .map((match) => match[1] as string)
      .filter((name) => name !== 'help');
    expect(commands).toContain('compact');
    for (const command of commands) {
      const help = await runBinary([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: condense ${command}`);
    }
  });

  it('exits 2 on a usage error and 1 on a missing file, naming it', async () => {
    expect((await runBinary(['compact'])).code).toBe(2);
    expect((await runBinary(['frobnicate'])).code).toBe(2);
    const missing = await runBinary(['inspect', 'no/such/file.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no/such/file.json');
  });
});
