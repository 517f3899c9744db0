import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run-cli.js';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument, layoutFor } from '../../src/codecs/registry.js';
import { FORMAT_NAMES, type FormatName } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import { corpusFiles } from '../support/corpus.js';
import { FAKE } from './fixtures.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const dir = mkdtempSync(join(tmpdir(), 'condense-redact-'));

async function run(argv: readonly string[], stdin = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
    cwd: dir,
    stderrIsTTY: false,
    columns: 100,
    readStdin: async () => stdin,
  };
  const code = await runCli(argv, context);
  return { code, stdout, stderr };
}

const SECRETS = [
  FAKE.openai.slice(6, -4),
  FAKE.githubClassic.slice(6, -4),
  'Db-Pass-123',
  FAKE.awsSecret.slice(6, -4),
];

/** A small conversation with a secret in the user text, the tool call, the tool result and the answer. */
const TRANSCRIPT: Transcript = {
  messages: [
    { role: 'user', parts: [{ type: 'text', text: `Use ${FAKE.openai} to call the API.` }] },
    {
      role: 'assistant',
      parts: [
        {
          type: 'tool-call',
          id: 'call_1',
          name: 'bash',
          arguments: JSON.stringify({ command: `GITHUB_TOKEN=${FAKE.githubClassic} gh repo list` }),
        },
      ],
    },
    {
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          callId: 'call_1',
          name: 'bash',
          content: [
            {
              type: 'text',
              text: `DATABASE_URL=postgres://app:Db-Pass-123@db/app\naws_secret_access_key = ${FAKE.awsSecret}`,
            },
          ],
        },
      ],
    },
    { role: 'assistant', parts: [{ type: 'text', text: 'The repositories are listed above.' }] },
  ],
};

function fileOf(format: FormatName): string {
  const text = encodeDocument({
    format,
    layout: layoutFor(format, 1),
    entries: [{ kind: 'transcript', transcript: TRANSCRIPT }],
  });
  const path = join(dir, `sample-${format}.${layoutFor(format, 1) === 'json' ? 'json' : 'jsonl'}`);
  writeFileSync(path, text);
  return path;
}

describe('condense redact', () => {
  it.each(FORMAT_NAMES)('masks every secret of a %s file and writes the same format', async (format) => {
    const file = fileOf(format);
    expect(SECRETS.some((secret) => readFileSync(file, 'utf8').includes(secret))).toBe(true);
    const result = await run(['redact', file]);
    expect(result.code).toBe(0);
    for (const secret of SECRETS) expect(result.stdout).not.toContain(secret);
    const reread = decodeDocument(result.stdout, { format });
    expect(decodeDocument(result.stdout).format).toBe(format);
    expect(documentTranscripts(reread)[0]?.messages.length).toBe(
      documentTranscripts(decodeDocument(readFileSync(file, 'utf8'), { format }))[0]?.messages.length,
    );
    expect(result.stderr).toMatch(/masked \d+ secret/);
  });

  it('prints the findings by kind and location with --json, and writes the file to -o', async () => {
    const file = fileOf('openai');
    const out = join(dir, 'redacted.json');
    const result = await run(['redact', file, '--json', '-o', out]);
    expect(result.code).toBe(0);
    const payload = JSON.parse(result.stdout);
    expect(payload).toMatchObject({ format: 'openai', out });
    expect(payload.byKind).toMatchObject({
      'openai-key': 1,
      'github-token': 1,
      'connection-string': 1,
      'aws-secret-key': 1,
    });
    expect(payload.locations[0]).toMatchObject({
      kind: 'openai-key',
      entry: 0,
      message: 0,
      path: ['parts', 0, 'text'],
    });
    for (const secret of SECRETS) {
      expect(result.stdout).not.toContain(secret);
      expect(readFileSync(out, 'utf8')).not.toContain(secret);
    }
  });

  it('keeps the allowed values', async () => {
    const result = await run(['redact', fileOf('openai'), '--allow', 'Db-Pass-123']);
    expect(result.stdout).toContain('Db-Pass-123');
    expect(result.stdout).not.toContain(FAKE.openai.slice(6, -4));
  });

  it('reads standard input', async () => {
    const result = await run(['redact', '-'], readFileSync(fileOf('anthropic'), 'utf8'));
    expect(result.code).toBe(0);
    expect(decodeDocument(result.stdout).format).toBe('anthropic');
  });

  it('exits 1 on input that is not a transcript, and on a missing file', async () => {
    writeFileSync(join(dir, 'not-json.txt'), 'hello, this is not a transcript');
    expect((await run(['redact', 'not-json.txt'])).code).toBe(1);
    expect((await run(['redact', 'missing.jsonl'])).code).toBe(1);
  });

  it.each(['anthropic', 'claude-code', 'openai', 'sharegpt'] as const)(
    'works on a real %s corpus file',
    async (corpusDir) => {
      const file = corpusFiles(corpusDir)[0] as string;
      const result = await run(['redact', file, '--format', corpusDir]);
      expect(result.code).toBe(0);
      const before = decodeDocument(readFileSync(file, 'utf8'), { format: corpusDir });
      const after = decodeDocument(result.stdout, { format: corpusDir });
      expect(documentTranscripts(after).length).toBe(documentTranscripts(before).length);
    },
  );
});
