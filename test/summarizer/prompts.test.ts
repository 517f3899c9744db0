import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import {
  buildCheckpointPrompt,
  buildFirstPassPrompt,
  CHECKPOINT_SECTIONS,
  CHECKPOINT_TEMPLATE_VERSION,
  clipMiddle,
  isEmptySection,
  parseSections,
  serializeTurns,
  stripReasoningTags,
} from '../../src/summarizer/index.js';
import { assistantMessage, toolCall, toolResult, userMessage } from '../../src/testing.js';
import { messages } from './generators.js';

/** True when the string has no lone surrogate (String#isWellFormed is ES2024, past this project's lib). */
function wellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const input = { turns: '[USER]\nhello', targetTokens: 1200 };

function headingOrder(prompt: string): string[] {
  return prompt.split('\n').filter((line) => /^## /.test(line));
}

describe('checkpoint prompts', () => {
  it('lists every section in order with the turns, the length and the secrets rule', () => {
    const prompt = buildFirstPassPrompt(input);
    expect(headingOrder(prompt)).toEqual(CHECKPOINT_SECTIONS.map((section) => `## ${section.title}`));
    expect(prompt).toContain('<turns>\n[USER]\nhello\n</turns>');
    expect(prompt).toContain('about 1200 tokens');
    expect(prompt).toMatch(/Never write secrets/);
    expect(prompt).toContain('`N. ACTION target — outcome [tool: name]`');
    expect(prompt).not.toContain('FOCUS');
    expect(CHECKPOINT_TEMPLATE_VERSION).toMatch(/^condense-checkpoint\/\d+$/);
  });

  it('asks for an update of a previous checkpoint, never a summary of it', () => {
    const prompt = buildCheckpointPrompt({ ...input, previousSummary: '## Goal\nold goal' });
    expect(prompt).toContain('<checkpoint>\n## Goal\nold goal\n</checkpoint>');
    expect(prompt).toMatch(/Keep the numbering of the Action Log/);
    expect(prompt).toMatch(/mark failures that were fixed, with the fix/);
    expect(prompt.indexOf('<checkpoint>')).toBeLessThan(prompt.indexOf('<turns>'));
  });

  it('gives the focus topic most of the budget and keeps the latest request verbatim', () => {
    const prompt = buildCheckpointPrompt({
      ...input,
      focusTopic: 'database migrations',
      latestUserRequest: 'Ship v2.',
    });
    expect(prompt).toContain('"database migrations"');
    expect(prompt).toMatch(/two thirds/);
    expect(prompt).toContain('<latest_request>\nShip v2.\n</latest_request>');
  });
});

describe('serializeTurns', () => {
  it('renders roles, tool calls with arguments and results labelled with the tool name', () => {
    const call = toolCall('Bash', { command: 'ls -la' }, 'x1');
    const result = toolResult('x1', 'total 0', { isError: true });
    const text = serializeTurns([userMessage('list files'), assistantMessage('Listing.', call), result]);
    expect(text).toBe(
      '[USER]\nlist files\n\n[ASSISTANT]\nListing.\n→ Bash({"command":"ls -la"})\n\n[TOOL]\n[result of Bash, failed]\ntotal 0',
    );
  });

  it('removes reasoning and shows images as placeholders', () => {
    const message: Message = {
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'secret plan' },
        { type: 'text', text: '<think>inline plan</think>Visible answer.' },
        { type: 'image', source: { kind: 'base64', data: 'AAAA' } },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/shot.png' } },
      ],
    };
    const text = serializeTurns([message]);
    expect(text).not.toContain('plan');
    expect(text).toContain('Visible answer.');
    expect(text).toContain('[image]');
    expect(text).toContain('[image: https://example.com/shot.png]');
    expect(text).not.toContain('AAAA');
  });

  it('keeps the head and tail of a long body and cuts long arguments', () => {
    const body = `HEAD ${'x'.repeat(20_000)} TAIL`;
    const call = toolCall('Write', { content: 'y'.repeat(5000) }, 'w1');
    const text = serializeTurns([userMessage(body), assistantMessage(undefined, call)], {
      maxMessageChars: 3000,
    });
    expect(text).toContain('HEAD');
    expect(text).toContain('TAIL');
    expect(text).toMatch(/characters omitted/);
    expect(text).toContain('[arguments cut]');
    expect(text.length).toBeLessThan(6000);
  });

  it('never splits a surrogate pair and never throws', () => {
    fc.assert(
      fc.property(messages, fc.integer({ min: 200, max: 2000 }), (turns, max) => {
        fc.pre(wellFormed(serializeTurns(turns, { maxMessageChars: 1e9, maxArgumentChars: 1e9 })));
        expect(wellFormed(serializeTurns(turns, { maxMessageChars: max }))).toBe(true);
      }),
      { numRuns: 200 },
    );
    const emoji = '\u{1F600}'.repeat(500);
    expect(wellFormed(clipMiddle(emoji, 101, 51, 30))).toBe(true);
    expect(wellFormed(`a\uD800b`)).toBe(false);
  });

  it('strips unterminated reasoning that opens a line', () => {
    expect(stripReasoningTags('Answer.\n<think>never closed')).toBe('Answer.\n');
    expect(stripReasoningTags('<reasoning a="1">x</reasoning>kept')).toBe('kept');
  });
});

describe('parseSections', () => {
  it('reads condense and Hermes headings, and empty markers', () => {
    const parsed = parseSections(
      'intro\n## Historical Task Snapshot\ndo X\n## Relevant Files\n- a.ts\n## Blocked\nNone.',
    );
    expect(parsed.preamble).toBe('intro');
    expect(parsed.sections.get('currentRequest')).toBe('do X');
    expect(parsed.sections.get('references')).toBe('- a.ts');
    expect(isEmptySection(parsed.sections.get('failures'))).toBe(true);
    expect(isEmptySection('- none')).toBe(true);
    expect(isEmptySection('- a.ts')).toBe(false);
  });
});
