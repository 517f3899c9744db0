/** Appended to the system prompt only when `noteInSystemPrompt` is on (it changes the prompt's bytes). */
export const SYSTEM_NOTE =
  '[condense note: earlier turns of this conversation were condensed into a checkpoint message. Build on the ' +
  'work it records instead of redoing it.]';

/** Checkpoint body of last resort, when no summarizer produced anything; reported as `fallback-marker`. */
export function staticFallbackBody(folded: number): string {
  return (
    `No summary could be made for ${folded} earlier message(s); they were removed to keep the conversation ` +
    'inside the context window. Their details are lost from this context. Ask the user or re-check files and ' +
    'command output if something from that stretch matters.'
  );
}
