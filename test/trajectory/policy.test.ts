import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCodec } from '../../src/codecs/registry.js';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import { createSummarizerChain } from '../../src/summarizer/chain/summarizer-chain.js';
import { createMockSummarizer, userMessage } from '../../src/testing.js';
import {
  annotateTurns,
  compressTrajectory,
  encodeTrajectoryEntry,
  findAnchors,
  parseTrajectoryConfig,
} from '../../src/trajectory/index.js';
import { ROOT } from '../support/cli.js';
import { agentRun, charCounter, toolPairsIntact } from './helpers.js';

const TOOLS = ['port_scan', 'dns_lookup', 'process_list', 'log_grep'];

/** A threat hunt: an alert with an IOC, recon tool calls, then remediation (isolate, kill). */
function huntRun(steps = 16): Message[] {
  const run = agentRun({
    steps,
    output: 500,
    task: 'Triage the EDR alert below.',
    tool: (step) =>
      step >= steps - 2
        ? step === steps - 1
          ? 'kill_process'
          : 'isolate_host'
        : (TOOLS[step % TOOLS.length] as string),
    interjections: { 5: '[IOC] 203.0.113.7 beaconing from host WS-042 (sha256 9f2c…)' },
  });
  return [...run.messages];
}

const policy = parseTrajectoryConfig(readFileSync(join(ROOT, 'examples/threat-hunt-policy.yaml'), 'utf8'));

describe('domain policies', () => {
  it('parses the shipped threat-hunt policy', () => {
    expect(policy.settings).toMatchObject({
      targetMaxTokens: 8000,
      summaryTargetTokens: 600,
      protectLastN: 6,
      strategy: 'escalate',
      policy: {
        name: 'threat-hunt',
        anchors: [{ role: 'user', contains: '[IOC]', match: 'first' }],
        annotations: { field: 'attack' },
      },
    });
    expect(policy.settings.policy?.annotations?.tools['port_scan']).toMatch(/^T1046/);
    expect(policy.tokenizer).toBe('o200k_base');
  });

  it('finds the first user turn with the IOC marker, and only that one', () => {
    const messages = [...huntRun(), userMessage('[IOC] a second alert')];
    expect(findAnchors(messages, policy.settings.policy?.anchors)).toEqual([12]);
    expect(findAnchors(messages, [{ contains: '[IOC]', match: 'all' }])).toEqual([12, messages.length - 1]);
    expect(findAnchors(messages, [{ role: 'assistant', contains: '[IOC]' }])).toEqual([]);
    expect(findAnchors(messages, [{ pattern: 'ws-\\d+', flags: 'i' }])).toEqual([12]);
  });

  it('refuses an anchor without a test and an invalid pattern', () => {
    expect(() => findAnchors([], [{ role: 'user' }])).toThrow(/neither contains nor pattern/);
    expect(() => findAnchors([], [{ pattern: '(' }])).toThrow(/not a valid regular expression/);
  });

  it('keeps the anchor verbatim even in the middle, summarizes the recon around it and tags tool turns', async () => {
    const messages = huntRun();
    const mock = createMockSummarizer({ replies: ['recon summary'], kind: 'extractive' });
    const result = await compressTrajectory(messages, {
      ...policy.settings,
      targetMaxTokens: 3000,
      summaryTargetTokens: 200,
      counter: charCounter(),
      summarizer: createSummarizerChain({ extractive: mock, now: () => 0 }),
    });
    const out = result.transcript.messages;
    const anchor = messages[12] as Message;
    expect(out).toContain(anchor);
    expect(result.metrics.anchors).toEqual([12]);
    // The anchor sits in the first half: the region starts after it.
    expect(result.metrics.region?.start).toBeGreaterThan(12);
    expect(out.slice(-6)).toEqual(messages.slice(-6));
    expect(toolPairsIntact(out)).toBe(true);
    // The summarizer saw the labels of the turns it summarized.
    const seen = mock.requests[0]?.messages ?? [];
    expect(
      seen.some((message) => message.role === 'tool' && messageText(message).includes('[attack: T1')),
    ).toBe(true);
    expect(focusOf(mock.requests[0])).toMatch(/ATT&CK/);
    // Every surviving tool turn of a mapped tool is labelled in the output.
    const labelled = new Set(result.annotations.map((note) => note.turn));
    out.forEach((message, index) => {
      if (message.role === 'tool') expect(labelled.has(index)).toBe(true);
    });
    expect(result.annotations.find((note) => note.tool === 'kill_process')?.label).toMatch(/^M1040/);
  });

  it('writes the labels into the encoded entry as turn_annotations', () => {
    const messages = huntRun(4);
    const annotations = annotateTurns(messages, policy.settings.policy?.annotations);
    const entry = encodeTrajectoryEntry({ messages }, 'sharegpt', { annotations }) as Record<string, unknown>;
    const notes = entry['turn_annotations'] as { turn: number; tool: string; attack: string }[];
    expect(notes.map((note) => note.turn)).toEqual([3, 5, 7, 9]);
    expect(notes[0]).toEqual({ turn: 3, tool: 'port_scan', attack: 'T1046 Network Service Discovery' });
    const turns = entry['conversations'] as { from: string }[];
    for (const note of notes) expect(turns[note.turn]?.from).toBe('tool');
  });

  it('matches tool names case-insensitively after an exact miss', () => {
    const messages = agentRun({ steps: 1, tool: () => 'Port_Scan' }).messages;
    expect(annotateTurns(messages, { tools: { port_scan: 'T1046' } })).toEqual([
      { turn: 3, tool: 'Port_Scan', field: 'annotation', label: 'T1046' },
    ]);
  });

  it('leaves array-shaped entries without extras', () => {
    const messages = huntRun(2);
    const annotations = annotateTurns(messages, policy.settings.policy?.annotations);
    const codec = getCodec('openai');
    const array = (codec.encode({ messages }) as { messages: unknown[] }).messages;
    const transcript = codec.decode(array).value;
    const wire = encodeTrajectoryEntry(transcript, 'openai', { annotations });
    expect(Array.isArray(wire)).toBe(true);
    expect(wire).toEqual(array);
  });
});

function focusOf(request: { focusTopic?: string } | undefined): string {
  return request?.focusTopic ?? '';
}
