import type { Message } from '../model/message.js';
import type { Transcript } from '../model/transcript.js';
import { buildCodingSession, userMessage } from './transcript-builders.js';

/** A transcript the engine conformance suite runs, by name. */
export interface EngineConformanceCase {
  readonly name: string;
  readonly transcript: Transcript;
}

/** A build or test log of `lines` lines, for tool outputs worth truncating. */
function longLog(step: number, lines: number): string {
  return Array.from(
    { length: lines },
    (_, line) => `[step ${step}] line ${line}: compiled src/module-${line % 7}/handler.ts in ${line * 3} ms`,
  ).join('\n');
}

/** Every tool output of the session replaced by a long log. */
function withLongOutputs(transcript: Transcript, lines: number): Transcript {
  return {
    ...transcript,
    messages: transcript.messages.map((message, index) =>
      message.role !== 'tool'
        ? message
        : {
            ...message,
            parts: message.parts.map((part) =>
              part.type === 'tool-result'
                ? { ...part, content: [{ type: 'text' as const, text: longLog(index, lines) }] }
                : part,
            ),
          },
    ),
  };
}

/** Two sessions in one conversation: a request, its steps, a new request, its steps, a last request. */
function severalRequests(): Transcript {
  const first = buildCodingSession({ steps: 18, finalRequest: 'Now also handle the empty-input case.' });
  const second = buildCodingSession({
    steps: 18,
    system: false,
    task: 'And rename handle0 to handleRequest.',
  });
  const messages: Message[] = [...first.messages, ...second.messages.slice(1)];
  messages.push(userMessage('Last thing: update the README example to the new name.'));
  return { messages: joinUsers(messages) };
}

/** Consecutive user messages merged, so every generated case alternates as providers require. */
function joinUsers(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const previous = out[out.length - 1];
    if (previous?.role === 'user' && message.role === 'user') {
      out[out.length - 1] = { ...previous, parts: [...previous.parts, ...message.parts] };
    } else out.push(message);
  }
  return out;
}

/**
 * The generated transcripts every engine is checked on: coding sessions short and long, with and without a
 * system prompt, with long tool outputs, with several requests, and one whose latest request alone is bigger
 * than the window the suite gives it (so the only right answers are a fit or `BUDGET_UNREACHABLE`).
 */
export function generatedConformanceCases(): EngineConformanceCase[] {
  return [
    { name: 'coding session, 12 steps', transcript: buildCodingSession() },
    { name: 'coding session, 60 steps', transcript: buildCodingSession({ steps: 60 }) },
    {
      name: 'coding session, 150 steps, no system prompt',
      transcript: buildCodingSession({ steps: 150, system: false }),
    },
    {
      name: 'coding session with long tool outputs',
      transcript: withLongOutputs(buildCodingSession({ steps: 24 }), 120),
    },
    { name: 'several requests in one conversation', transcript: severalRequests() },
    {
      name: 'latest request bigger than the window',
      transcript: buildCodingSession({
        steps: 30,
        finalRequest: `Please apply this specification exactly:\n${longLog(0, 700)}`,
      }),
    },
  ];
}
