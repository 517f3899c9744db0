import { appendAll } from '../../model/arrays.js';
import { isContinuation } from '../../transforms/user-turns.js';
import type { SessionFacts } from './collect-facts.js';
import {
  CHARS_PER_TOKEN,
  carriedLines,
  demoteBeyond,
  type Item,
  PRIORITY,
  requestRenderings,
  trimMiddle,
} from './items.js';
import { lineNumber, type PreviousCheckpoint, unbullet } from './previous-checkpoint.js';
import { clip } from './sentences.js';
import { trackedTasks } from './task-state.js';

/** What the request sections are built from. */
export interface RequestInput {
  readonly facts: SessionFacts;
  readonly previous: PreviousCheckpoint | undefined;
  /** The person's latest request anywhere in the transcript (it may sit in the kept tail), verbatim. */
  readonly latestUserRequest: string | undefined;
  readonly latestIsContinuation: boolean;
  /** The person's requests in the whole transcript, oldest first (see `SummaryRequest.userRequests`). */
  readonly userRequests: readonly string[];
  /** The checkpoint's target, in tokens: long requests are cut to a share of it. */
  readonly targetTokens: number;
  /** The token count the fitter uses: shares of the target are measured with it. */
  readonly count: (text: string) => number;
}

/** Shares of the target the request texts and the list of the person's messages take at most, at their priority. */
const CURRENT_SHARE = 0.25;
const ORIGINAL_SHARE = 0.15;
const MESSAGES_SHARE = 0.25;
const TASKS_SHARE = 0.2;

const CURRENT_CAPS = [4000, 1500, 500, 160];
const ORIGINAL_CAPS = [2000, 800, 300, 120];
const PROMPT_CAP = 400;

/** Length caps for a request, longest first, none above `share` of the target. */
function capsFor(caps: readonly number[], input: RequestInput, share: number): number[] {
  const most = Math.max(160, Math.floor(input.targetTokens * share * CHARS_PER_TOKEN));
  // The distinct caps in order, as a Set keeps them (SameValueZero, as `includes` compares).
  const distinct: number[] = [];
  for (const cap of caps) {
    const capped = Math.min(cap, most);
    if (!distinct.includes(capped)) distinct.push(capped);
  }
  return distinct;
}
// An intention worth handing over names something: a few words at least, not "Let me wait." or "Now let me check."
const STALE_INTENT =
  /^(?:let me|now let me|i'll|i will)\s+(?:wait|check|see|look|verify|think|try again)\b[^.]{0,20}[.!]?$/i;

function substantivePrompts(facts: SessionFacts) {
  return facts.prompts.filter(
    (prompt) => prompt.kind !== 'shell' && !prompt.continuation && prompt.text.trim() !== '',
  );
}

/**
 * The request being worked on: the person's latest request when it is a real one, else (they only said
 * "continue") the latest real request of the turns, else the one the previous checkpoint recorded.
 */
export function currentRequestOf(input: RequestInput): string | undefined {
  const latest = input.latestUserRequest?.trim();
  if (latest !== undefined && latest !== '' && !input.latestIsContinuation) return latest;
  const anywhere = input.userRequests.filter((text) => text.trim() !== '' && !isContinuation(text));
  const substantive = substantivePrompts(input.facts);
  const quoted = (input.previous?.quotedPrompts ?? []).filter((text) => !isContinuation(text));
  const found =
    anywhere[anywhere.length - 1]?.trim() ??
    substantive[substantive.length - 1]?.text.trim() ??
    input.previous?.currentRequest ??
    quoted[quoted.length - 1]?.trim() ??
    latest;
  return found === '' ? undefined : found;
}

/** The session's first request: the previous checkpoint's, else the first real one the transcript holds. */
function originalRequestOf(input: RequestInput): string | undefined {
  const quoted = (input.previous?.quotedPrompts ?? []).find((text) => !isContinuation(text));
  const recorded = input.previous?.originalRequest ?? quoted ?? input.previous?.currentRequest;
  if (recorded !== undefined) return recorded;
  const first = input.userRequests.find((text) => text.trim() !== '' && !isContinuation(text));
  return first?.trim() ?? substantivePrompts(input.facts)[0]?.text.trim();
}

/** The person's requests: current (with go-aheads after it), original, and every message they wrote. */
export function requestItems(input: RequestInput): Item[] {
  const { facts } = input;
  const items: Item[] = [];
  const current = currentRequestOf(input);
  if (current !== undefined) {
    const rendering = requestRenderings(current, capsFor(CURRENT_CAPS, input, CURRENT_SHARE));
    items.push({
      section: 'currentRequest',
      priority: PRIORITY.request,
      weight: 0,
      order: 0,
      raw: true,
      ...rendering,
    });
  }
  const currentIndex = facts.prompts.findIndex((prompt) => prompt.text.trim() === current);
  const currentAt = input.userRequests.findLastIndex((text) => text.trim() === current);
  const goAheads =
    currentAt === -1
      ? facts.prompts
          .slice(currentIndex + 1)
          .filter((prompt) => prompt.continuation)
          .map((prompt) => prompt.text.trim())
      : input.userRequests.slice(currentAt + 1).map((text) => text.trim());
  if (input.latestIsContinuation && input.latestUserRequest !== undefined)
    goAheads.push(input.latestUserRequest.trim());
  const uniqueGoAheads = [...new Set(goAheads)];
  if (current !== undefined && uniqueGoAheads.length > 0) {
    items.push({
      section: 'currentRequest',
      text: `(then the person wrote: ${uniqueGoAheads.map((text) => `"${clip(text, 80)}"`).join(', ')})`,
      priority: PRIORITY.state,
      weight: 0,
      order: 1,
      raw: true,
    });
  }
  const original = originalRequestOf(input);
  const sameAsCurrent = original === undefined || original === current;
  const originalRendering = sameAsCurrent
    ? { text: 'Same as the current request.', alternatives: [] }
    : requestRenderings(original, capsFor(ORIGINAL_CAPS, input, ORIGINAL_SHARE));
  items.push({
    section: 'originalRequest',
    priority: PRIORITY.request,
    weight: 1,
    order: 0,
    raw: true,
    ...originalRendering,
  });
  appendAll(
    items,
    demoteBeyond(promptItems(input), input.targetTokens * MESSAGES_SHARE * CHARS_PER_TOKEN, input.count),
  );
  return items;
}

/** Every message the person wrote, previous checkpoint's list first, numbered; recent ones weigh most. */
function promptItems(input: RequestInput): Item[] {
  const earlier = input.previous?.sections.get('userMessages') ?? [];
  const items = carriedLines('userMessages', earlier, PRIORITY.core, 1_000);
  let number = 0;
  for (const line of earlier) number = lineNumber(line) ?? number + 1;
  const prompts = input.facts.prompts;
  prompts.forEach((prompt, index) => {
    number++;
    const label = prompt.kind === 'shell' ? '(ran) ' : '';
    const text = `${number}. ${label}${trimMiddle(prompt.text.trim(), PROMPT_CAP)}`;
    items.push({
      section: 'userMessages',
      text,
      alternatives: [`${number}. ${label}${trimMiddle(prompt.text.trim(), 120)}`],
      priority: prompt.continuation || prompt.kind === 'shell' ? PRIORITY.detail : PRIORITY.core,
      weight: prompts.length - index,
      order: earlier.length + index,
      raw: true,
    });
  });
  return items;
}

/** Next Step, Task State and Pending User Asks. */
export function stateItems(input: RequestInput & { readonly current: string | undefined }): Item[] {
  const { facts, previous } = input;
  const items: Item[] = [];
  const plan = facts.plan ?? [];
  const active = plan.filter((item) => item.status === 'in progress');
  const pending = plan.filter((item) => item.status === 'pending');
  const tasks = trackedTasks(facts.tracker);
  const next: string[] = active.map((item) => `Continue: ${item.text}`);
  for (const task of tasks)
    if (task.status === 'in progress') next.push(`Continue task ${task.id} (marked in progress)`);
  const intent = [...facts.intents].reverse().find((sentence) => !STALE_INTENT.test(sentence.trim()));
  if (intent !== undefined) next.push(`When these turns ended the agent was about to: ${clip(intent, 240)}`);
  if (next.length === 0 && pending[0] !== undefined) next.push(`Next planned item: ${pending[0].text}`);
  if (next.length === 0 && facts.remaining[0] !== undefined) next.push(`Still to do: ${facts.remaining[0]}`);
  if (next.length === 0) {
    for (const line of previous?.sections.get('nextStep') ?? []) next.push(unbullet(line));
  }
  next.forEach((text, index) => {
    items.push({ section: 'nextStep', text, priority: PRIORITY.state, weight: index, order: index });
  });
  const taskLines: { text: string; priority: Item['priority'] }[] = [];
  const newPlan = facts.plan !== undefined;
  for (const line of previous?.sections.get('taskState') ?? []) {
    const text = unbullet(line);
    if (newPlan && /^\[(?:done|in progress|pending)\]/.test(text)) continue;
    taskLines.push({
      text,
      priority: /^\[done\]|^\[committed\]|— ok$/.test(text) ? PRIORITY.core : PRIORITY.state,
    });
  }
  for (const item of plan) {
    taskLines.push({
      text: `[${item.status}] ${clip(item.text, 240)}`,
      priority: item.status === 'done' ? PRIORITY.core : PRIORITY.state,
    });
  }
  for (const text of facts.remaining) taskLines.push({ text: `[pending] ${text}`, priority: PRIORITY.state });
  const lastMove = new Map<string, string>();
  for (const step of facts.tracker) {
    if (step.task !== undefined) {
      lastMove.set(step.task.id, step.command);
      continue;
    }
    const text =
      step.commit === undefined
        ? `\`${step.command}\` — ${step.failed ? 'failed' : 'ok'}`
        : `[${step.failed ? 'commit failed' : 'committed'}] ${step.commit}`;
    taskLines.push({ text, priority: PRIORITY.core });
  }
  for (const task of tasks) {
    taskLines.push({
      text: `[${task.status}] ${task.id} — \`${lastMove.get(task.id) ?? ''}\``,
      priority: task.status === 'done' ? PRIORITY.core : PRIORITY.state,
    });
  }
  const seen = new Set<string>();
  const stateLines: Item[] = [];
  taskLines.forEach((line, index) => {
    if (seen.has(line.text)) return;
    seen.add(line.text);
    stateLines.push({
      section: 'taskState',
      text: line.text,
      priority: line.priority,
      weight: taskLines.length - index,
      order: index,
    });
  });
  appendAll(items, demoteBeyond(stateLines, input.targetTokens * TASKS_SHARE * CHARS_PER_TOKEN, input.count));
  const asks = facts.prompts
    .filter((prompt) => prompt.unanswered && !prompt.continuation && prompt.kind === 'prompt')
    .map((prompt) => prompt.text.trim())
    .filter((text) => text !== input.current);
  const answeredSince = facts.counts.assistant > 0;
  const earlierAsks = answeredSince ? [] : (previous?.sections.get('pendingAsks') ?? []).map(unbullet);
  [...earlierAsks, ...asks].forEach((text, index) => {
    items.push({
      section: 'pendingAsks',
      text: clip(text, 300),
      priority: PRIORITY.state,
      weight: index,
      order: index,
    });
  });
  return items;
}
