import { describe, expect, it } from 'vitest';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../../src/model/message.js';
import { messageText } from '../../../src/model/message-helpers.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { assistant, call, deepFreeze, long, result, system, tool, user } from '../../transforms/support.js';
import { lostArtifacts } from './support.js';

/**
 * A session whose first step is `step`, then one more step before the protected tail (the last three
 * assistant messages with `protectLastNTurns: 3`), unless `alone`.
 */
function withTail(step: readonly Message[], alone = false): Message[] {
  const messages: Message[] = [system('agent'), user('Look at the config.'), ...step];
  if (!alone)
    messages.push(assistant('Next.', call('n', 'bash', { command: 'ls' })), tool(result('n', 'a.ts')));
  for (let index = 0; index < 2; index++) {
    messages.push(assistant(`later ${index}`, call(`t${index}`, 'bash', { command: `echo ${index}` })));
    messages.push(tool(result(`t${index}`, `${index}`)));
  }
  messages.push(assistant('Done.'));
  return messages;
}

const OPTIONS = { protectLastNTurns: 3 } as const;

describe('rule 1: collapse succeeded tool call/result pairs', () => {
  it('replaces a succeeded call and its result by one line with the tool, its target, the outcome and a reference', async () => {
    const input = deepFreeze({
      messages: withTail([
        assistant('Reading it.', call('r1', 'read_file', { path: 'config.yaml' })),
        tool(result('r1', `${'key: value\n'.repeat(31)}last: 1`)),
      ]),
    });
    const { transcript, report } = await compactWithRules(input, OPTIONS);
    const text = transcript.messages.map(messageText).join('\n');
    expect(text).toMatch(
      /\[tool: read_file config\.yaml → ok, 32 lines \(348 chars\) · ref=m3#[0-9a-f]{8}\]/,
    );
    expect(report.rules?.heldBack).toBe(1);
    expect(JSON.stringify(transcript.messages)).not.toContain('"callId":"r1"');
    expect(text).toContain('Reading it.');
    expect(report.rules?.collapsedPairs).toBe(1);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
    expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
  });

  it('keeps failed calls with their error message: declared errors, non-zero exits and error first lines', async () => {
    const input = {
      messages: withTail([
        assistant(
          'Trying three things.',
          call('e1', 'read_file', { path: '/etc/missing.conf' }),
          call('e2', 'bash', { command: 'npm test' }),
          call('e3', 'fetch_url', { url: 'https://example.com/api' }),
        ),
        tool(result('e1', 'ENOENT: no such file or directory, open /etc/missing.conf', { isError: true })),
        tool(result('e2', 'FAIL src/a.test.ts\nTypeError: x is not a function\nExit code 1')),
        tool(result('e3', 'Error: connect ECONNREFUSED 127.0.0.1:443')),
      ]),
    };
    const { transcript, report } = await compactWithRules(input, OPTIONS);
    expect(report.rules?.collapsedPairs).toBe(0);
    const json = JSON.stringify(transcript.messages);
    for (const id of ['e1', 'e2', 'e3']) expect(json).toContain(`"callId":"${id}"`);
    expect(json).toContain('TypeError: x is not a function');
    expect(json).toContain('ECONNREFUSED');
  });

  it('collapses the succeeded calls of a parallel step and keeps the failed one as a real call', async () => {
    const input = {
      messages: withTail([
        assistant(
          '',
          call('ok1', 'grep', { pattern: 'TODO', path: 'src' }),
          call('bad', 'bash', { command: 'make' }),
        ),
        tool(
          result('ok1', 'src/a.ts:1: TODO one\nsrc/b.ts:9: TODO two'),
          result('bad', 'make: *** [all] Error 2\nExit code 2'),
        ),
      ]),
    };
    const { transcript } = await compactWithRules(input, OPTIONS);
    const json = JSON.stringify(transcript.messages);
    expect(json).not.toContain('"callId":"ok1"');
    expect(json).toContain('"callId":"bad"');
    expect(transcript.messages.map(messageText).join('\n')).toMatch(
      /\[tool: grep 'TODO' in src → ok, 2 result lines.*ref=/,
    );
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('keeps every path of a file listing or grep output in the collapsed line', async () => {
    const files = Array.from({ length: 40 }, (_, index) => `/repo/src/feature${index}/index.ts`);
    const input = {
      messages: withTail([
        assistant('', call('g', 'glob', { pattern: '**/index.ts', path: '/repo/src' })),
        tool(
          result('g', files.map((file) => `-rw-r--r--  1 dev  staff  4096 Mar 29 02:30 ${file}`).join('\n')),
        ),
      ]),
    };
    const { transcript } = await compactWithRules(input, OPTIONS);
    const text = transcript.messages.map(messageText).join('\n');
    for (const file of files) expect(text).toContain(file);
    expect(lostArtifacts(input, transcript).paths).toEqual([]);
  });

  it('carries URLs and error lines of a succeeded output in the line', async () => {
    const input = {
      messages: withTail([
        assistant('', call('w', 'web_search', { query: 'date-fns-tz DST gap' })),
        tool(
          result(
            'w',
            `Results:\n1. https://github.com/marnusw/date-fns-tz/issues/231 RangeError: Invalid time value\n${long('snippet', 1_500)}\n2. https://date-fns.org/docs/Time-Zones\n${long('snippet two', 1_500)}`,
          ),
        ),
      ]),
    };
    const { transcript } = await compactWithRules(input, OPTIONS);
    const text = transcript.messages.map(messageText).join('\n');
    expect(text).toContain('https://github.com/marnusw/date-fns-tz/issues/231');
    expect(text).toContain('https://date-fns.org/docs/Time-Zones');
    expect(lostArtifacts(input, transcript)).toMatchObject({ urls: [], errorLines: [], toolNames: [] });
  });

  it('keeps the last succeeded call of the step before the protected tail when the tail opens with an assistant message', async () => {
    const input = {
      messages: withTail(
        [assistant('', call('a', 'read_file', { path: 'a.ts' })), tool(result('a', 'x'.repeat(900)))],
        true,
      ),
    };
    const { transcript, report } = await compactWithRules(input, OPTIONS);
    expect(report.rules?.heldBack).toBe(1);
    expect(JSON.stringify(transcript.messages)).toContain('"callId":"a"');
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });

  it('does not collapse with keep_tool_summary off, but still truncates the outputs', async () => {
    const input = {
      messages: withTail([
        assistant('', call('a', 'bash', { command: 'cat big.log' })),
        tool(result('a', long('log', 3_000))),
      ]),
    };
    const { transcript, report } = await compactWithRules(input, { ...OPTIONS, keepToolSummary: false });
    expect(report.rules?.collapsedPairs).toBe(0);
    expect(report.rules?.truncatedOutputs).toBe(1);
    expect(JSON.stringify(transcript.messages)).toContain('"callId":"a"');
  });

  it('with rule 4 off, keeps one real call per step so no two assistant messages meet', async () => {
    const steps: Message[] = [];
    for (let index = 0; index < 6; index++) {
      steps.push(
        assistant(
          '',
          call(`x${index}`, 'read_file', { path: `f${index}.ts` }),
          call(`y${index}`, 'read_file', { path: `g${index}.ts` }),
        ),
        tool(result(`x${index}`, 'a'.repeat(400)), result(`y${index}`, 'b'.repeat(400))),
      );
    }
    const input = { messages: withTail(steps) };
    const { transcript, report } = await compactWithRules(input, {
      ...OPTIONS,
      collapseConsecutiveAssistant: false,
    });
    expect(report.rules?.collapsedPairs).toBe(6);
    expect(report.rules?.heldBack).toBe(7);
    expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
  });
});
