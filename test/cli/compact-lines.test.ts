import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess, temporaryDirectory } from '../support/cli.js';

const directory = temporaryDirectory();
afterAll(() => directory.remove());

function transcriptLine(topic: string): string {
  const messages: unknown[] = [{ role: 'user', content: `Look into ${topic}.` }];
  for (let step = 0; step < 8; step++) {
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${step}`,
            type: 'function',
            function: { name: 'read_file', arguments: JSON.stringify({ path: `src/${topic}/${step}.ts` }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: `call_${step}`, content: `export const x${step} = 1;\n`.repeat(40) },
    );
  }
  messages.push({ role: 'user', content: `Now fix ${topic}.` });
  return JSON.stringify({ messages });
}

describe('condense compact of a JSONL file with lines that hold no transcript', () => {
  it('detects the format, names each such line with its number, and writes it back as it was', async () => {
    const lines = [
      transcriptLine('orders'),
      transcriptLine('billing'),
      '{"theme": "dark", "fontSize": 14}',
      'not json at all',
      transcriptLine('search'),
    ];
    const input = join(directory.path, 'mixed.jsonl');
    const out = join(directory.path, 'mixed.compacted.jsonl');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const run = await runInProcess(['compact', input, '--force', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/mixed\.jsonl:3: .*written back as it was, not compacted/);
    expect(run.stderr).toMatch(/mixed\.jsonl:4: .*not valid JSON.*written back as it was, not compacted/);
    const written = readFileSync(out, 'utf8').split('\n');
    expect(written[2]).toBe(lines[2]);
    expect(written[3]).toBe(lines[3]);
    expect(written[0]).not.toBe(lines[0]);
  });
});
