/**
 * The body of the last-resort checkpoint, for when no summarizer produced text at all: it says that turns
 * were removed without a record, so the agent checks the state of files and tools instead of assuming it.
 * Static on purpose: it must not depend on the turns that could not be summarized.
 */
export const SUMMARY_UNAVAILABLE_TEXT =
  'Earlier turns of this conversation were removed to free context space, and no record of them could be ' +
  'written. What they did is unknown from here: check the current state of files, branches and running ' +
  'processes before relying on anything said earlier, and ask the user if the task is unclear.';
