import { describe, expect, it } from 'vitest';
import { canonicalProblems, introducedProblems } from '../../../src/codecs/convert/rule-regressions.js';
import type { Transcript } from '../../../src/model/transcript.js';
import {
  assistantMessage,
  toolCall,
  toolResult,
  userMessage,
} from '../../../src/testing/transcript-builders.js';

const call = toolCall('read_file', { path: 'a.ts' });
const clean: Transcript = {
  messages: [
    userMessage('read a.ts'),
    assistantMessage(undefined, call),
    toolResult(call, 'x'),
    userMessage('ok'),
  ],
};
// A result whose call is gone: both providers reject it.
const orphan: Transcript = { messages: [userMessage('read a.ts'), toolResult(call, 'x'), userMessage('ok')] };

describe('introducedProblems', () => {
  it('reports a break the rewrite brought in', () => {
    for (const format of ['openai', 'anthropic'] as const) {
      expect(introducedProblems(format, clean, orphan).length).toBeGreaterThan(0);
    }
  });

  it('does not blame a rewrite for a break its input already had', () => {
    for (const format of ['openai', 'anthropic'] as const) {
      expect(introducedProblems(format, orphan, orphan)).toEqual([]);
    }
  });

  it('finds nothing introduced when the output has no problem, whatever the input', () => {
    for (const format of ['openai', 'anthropic'] as const) {
      expect(introducedProblems(format, orphan, clean)).toEqual([]);
      expect(introducedProblems(format, clean, clean)).toEqual([]);
    }
  });

  it('finds none in formats without provider rules, even where a provider would refuse the output', () => {
    for (const format of ['claude-code', 'sharegpt', 'ai-sdk', 'openai-responses', 'codex'] as const) {
      expect(canonicalProblems(format, orphan)).toEqual([]);
      expect(introducedProblems(format, clean, orphan)).toEqual([]);
    }
  });
});
