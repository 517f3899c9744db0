import { describe, expect, it } from 'vitest';
import { describeAction } from '../../../src/summarizer/extractive/describe-action.js';
import { toolCall } from '../../../src/testing.js';

describe('describeAction', () => {
  it('runs a shell command named like an Object property, as any other command', () => {
    for (const command of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const action = describeAction(toolCall('bash', { command }, 'c1'), undefined);
      expect(action.verb).toBe('RUN');
      expect(action.command).toBe(command);
    }
    expect(
      describeAction(toolCall('str_replace_editor', { command: 'view', path: 'a.ts' }, 'c2'), undefined).verb,
    ).toBe('READ');
  });
});
