import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, getCodec } from '../../src/codecs/registry.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { latestRequest } from '../engines/support.js';
import { runBinary, temporaryDirectory } from '../support/cli.js';
import { FIXTURES_DIR } from '../support/fixtures.js';

/** A Claude Code session compacted once by Claude Code: 12 messages, the boundary, its summary, 13 more. */
const SESSION = join(FIXTURES_DIR, 'claude-code/compacted-session.jsonl');
const EXAMPLE = 'examples/coding-agent-session.openai.json';
const LATEST =
  "Good. Now remove src/pricing/legacy.ts and update the README's pricing section. LATEST_REQUEST";

const tmp = temporaryDirectory();
afterAll(() => tmp.remove());
const counter = createRoughCounter();

function records(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The lines of a session file from its last `compact_boundary` on. */
function fromLastBoundary(text: string): string {
  const lines = text.trimEnd().split('\n');
  const at = lines.findLastIndex((line) => line.includes('"subtype":"compact_boundary"'));
  return lines.slice(Math.max(0, at)).join('\n');
}

function transcriptOf(text: string): Transcript {
  return documentTranscripts(decodeDocument(text))[0] as Transcript;
}

describe('condense compact of a Claude Code session that was already compacted (built binary)', () => {
  const input = readFileSync(SESSION, 'utf8');
  const inputRecords = records(input);
  const boundaryAt = inputRecords.findIndex((record) => record['subtype'] === 'compact_boundary');

  it('compacts what the agent had after its last compaction, says so, and leaves the records before it as they are', async () => {
    const out = join(tmp.path, 'default.jsonl');
    const run = await runBinary(['compact', SESSION, '--force', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'compacting the session as the agent has it after its last compaction (12 earlier messages stay in the file as they are; --full-history to include them)',
    );
    // The boundary's summary and the 13 messages after it; not the 26 of the whole file.
    expect(run.stderr).toMatch(/Compacted: 14 → \d+ messages/);
    const output = readFileSync(out, 'utf8');
    const written = records(output);
    for (const record of inputRecords.slice(0, boundaryAt + 1)) expect(written).toContainEqual(record);
    const compacted = fromLastBoundary(output);
    // Claude Code's summary is carried into the checkpoint; nothing from before it comes back into the context.
    expect(compacted).toContain('CC_SUMMARY_MARKER');
    expect(compacted).not.toContain('PRE_BOUNDARY_OUTPUT');
    expect(compacted).not.toContain('PRE_BOUNDARY_REQUEST');
    expect(compacted).toContain('POST_BOUNDARY_REQUEST');
    // The history before the boundary is still reachable through it; the agent's context is the compacted part.
    const history = transcriptOf(output);
    expect(history.messages.length).toBeGreaterThan(12);
    expect(JSON.stringify(history.messages)).toContain('PRE_BOUNDARY_REQUEST');
    const context = getCodec('claude-code').contextView?.(history) as Transcript;
    expect(context.messages.length).toBe(history.messages.length - 12);
    expect(JSON.stringify(context.messages)).not.toContain('PRE_BOUNDARY');
    expect(latestRequest(context.messages)?.text).toBe(LATEST);
    expect(verifyTranscript(history, { provider: 'anthropic' })).toEqual([]);
  });

  it('compacts the whole history with --full-history', async () => {
    const out = join(tmp.path, 'full.jsonl');
    const run = await runBinary(['compact', SESSION, '--force', '--full-history', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('as the agent has it');
    expect(run.stderr).toMatch(/Compacted: 26 → \d+ messages/);
    const output = readFileSync(out, 'utf8');
    // Everything before the boundary is folded: its outputs are gone, the person's request is carried verbatim.
    expect(output).not.toContain('PRE_BOUNDARY_OUTPUT');
    expect(output).toContain(
      'Migrate the discount rules in src/pricing/ from the legacy engine to rules.ts.',
    );
    expect(output).toContain('CC_SUMMARY_MARKER');
    const transcript = transcriptOf(output);
    expect(latestRequest(transcript.messages)?.text).toBe(LATEST);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });
});

describe('condense compact -c: the output fits the context length, or the run fails loudly', () => {
  it('fits the given context length', async () => {
    const out = join(tmp.path, 'example.json');
    const run = await runBinary(['compact', EXAMPLE, '-c', '4000', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const before = counter.countTranscript(transcriptOf(readFileSync(EXAMPLE, 'utf8')));
    const after = counter.countTranscript(transcriptOf(readFileSync(out, 'utf8')));
    expect(before).toBeGreaterThan(4000);
    expect(after).toBeLessThanOrEqual(4000);
  });

  it('fits the context length with the part of a Claude Code session the agent has', async () => {
    const out = join(tmp.path, 'session-2500.jsonl');
    const run = await runBinary(['compact', SESSION, '-c', '2500', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const context = transcriptOf(readFileSync(out, 'utf8'));
    const view = getCodec('claude-code').contextView?.(context) ?? context;
    expect(counter.countTranscript(view)).toBeLessThanOrEqual(2500);
  });

  it('exits 1 with BUDGET_UNREACHABLE when the latest request alone is bigger, and still writes the smallest result', async () => {
    const request = Array.from(
      { length: 25 },
      (_, step) =>
        `Step ${step}: update the handler for route /api/v${step}/orders so that it validates field item_${step} and logs rejected payloads.`,
    ).join(' ');
    const messages: unknown[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Look at the order service.' },
    ];
    for (let step = 0; step < 6; step++) {
      messages.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${step}`,
              type: 'function',
              function: { name: 'read_file', arguments: JSON.stringify({ path: `src/orders/h${step}.ts` }) },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: `call_${step}`,
          content: Array.from({ length: 60 }, (_, line) => `const x${line} = ${line}; // h${step}.ts`).join(
            '\n',
          ),
        },
      );
    }
    messages.push({ role: 'assistant', content: 'I read the handlers.' }, { role: 'user', content: request });
    const file = join(tmp.path, 'long-request.json');
    writeFileSync(file, JSON.stringify({ messages }));
    const input = transcriptOf(readFileSync(file, 'utf8'));
    const requestTokens = counter.countMessage(input.messages.at(-1) as Transcript['messages'][number]);
    expect(requestTokens).toBeGreaterThan(300);

    const out = join(tmp.path, 'long-request.compacted.json');
    const run = await runBinary(['compact', file, '-c', '300', '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('BUDGET_UNREACHABLE');
    const stated = Number(
      /the smallest compaction, written anyway, takes (\d+) tokens/.exec(run.stderr)?.[1],
    );
    expect(existsSync(out)).toBe(true);
    const written = transcriptOf(readFileSync(out, 'utf8'));
    const tokens = counter.countTranscript(written);
    // The size stated is the size written (the file's encoding may round a token either way).
    expect(Math.abs(tokens - stated)).toBeLessThanOrEqual(Math.ceil(stated / 100));
    // The smallest result: the system prompt, a checkpoint and the request, not the input sent back.
    expect(tokens).toBeLessThan(requestTokens + 300);
    expect(tokens).toBeLessThan(counter.countTranscript(input) / 4);
    expect(latestRequest(written.messages)?.text).toBe(request);
    expect(verifyTranscript(written, { provider: 'openai' })).toEqual([]);
  });
});
