import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import {
  assistantMessage,
  systemMessage,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing/transcript-builders.js';

/** Strings that would run script, load something or break the markup if they reached the page unescaped. */
export const HOSTILE = [
  '</pre></details><script>alert(1)</script>',
  '<img src=x onerror="alert(2)">',
  '"><iframe src="https://evil.example/"></iframe>',
  "'; background:url(//evil.example/a.png); x='",
  '</style></head><body onload=alert(3)>',
  '&lt;already-escaped&gt; & <!-- comment --> <![CDATA[ x ]]>',
] as const;

/**
 * A transcript that exercises every rule of the rules engine outside its protected tail: succeeded tool steps
 * (collapsed), a long failed output (truncated), a later system message (dropped), consecutive assistant
 * messages (merged), then enough recent steps to fill the protected tail.
 */
export function buildRulesSession(): Transcript {
  const messages: Message[] = [
    systemMessage('You are a coding agent.'),
    userMessage('Fix the build and tell me what broke.'),
  ];
  for (let step = 0; step < 8; step++) {
    const call = toolCall('Bash', { command: `npm run build -- --step ${step}` }, `call_ok_${step}`);
    messages.push(assistantMessage(`Step ${step}: running the build.`, call));
    messages.push(toolResult(call, `build step ${step} ok\n${'compiled src/file.ts\n'.repeat(3)}`));
  }
  const failing = toolCall('Bash', { command: 'npm test' }, 'call_fail');
  messages.push(assistantMessage('Running the tests.', failing));
  const lines = Array.from({ length: 80 }, (_, line) => `FAIL test/case-${line}.test.ts: expected 1 to be 2`);
  messages.push(toolResult(failing, lines.join('\n'), { isError: true }));
  messages.push(systemMessage('Reminder: the repository uses pnpm, not npm. Keep answers short.'));
  messages.push(assistantMessage('I will think about the failures first.'));
  messages.push(assistantMessage('The failures all come from one helper.'));
  messages.push(userMessage('Go ahead and fix it.'));
  for (let step = 0; step < 7; step++) {
    const call = toolCall('Edit', { file_path: `src/helper-${step}.ts` }, `call_tail_${step}`);
    messages.push(assistantMessage(`Editing helper ${step}.`, call));
    messages.push(toolResult(call, `The file src/helper-${step}.ts has been updated.`));
  }
  messages.push(assistantMessage('Done: the helper is fixed.'));
  return { messages };
}

/** A coding session whose every kind of text carries {@link HOSTILE} strings. */
export function buildHostileSession(): Transcript {
  const messages: Message[] = [
    { ...systemMessage(`System ${HOSTILE[3]}`), id: HOSTILE[1] },
    userMessage(`Please look at ${HOSTILE.join(' ')}`),
  ];
  for (let step = 0; step < 10; step++) {
    const hostile = HOSTILE[step % HOSTILE.length] as string;
    const call = toolCall(
      `tool${hostile}`,
      { command: hostile, path: `src/${step}.ts` },
      `id-${hostile}-${step}`,
    );
    messages.push(assistantMessage(`Step ${step} ${hostile}`, call));
    messages.push(
      toolResult(call, `${hostile}\n${'output line with <b>markup</b> & "quotes"\n'.repeat(40)}`, {
        name: `name${hostile}`,
      }),
    );
  }
  messages.push(assistantMessage(`Summary so far: ${HOSTILE[0]}`));
  messages.push(userMessage(`Last request ${HOSTILE[1]}`));
  return { messages };
}
