import { isWireObject } from '../../wire-object.js';

/**
 * The wrappers the openai codec reads: a bare message array; `{messages, …}` (requests, fine-tuning lines);
 * tau-bench `{task_id, traj, …}`; SWE-agent `.traj` `{history, trajectory, info, …}`; ToolBench answers
 * `{answer_generation: {train_messages, …}, tree, …}`; OpenHands replay event arrays and eval lines
 * `{instance_id, history: [events], …}`.
 */
export type EnvelopeKind =
  | 'array'
  | 'messages'
  | 'tau-bench'
  | 'swe-agent'
  | 'toolbench'
  | 'openhands-events'
  | 'openhands-output';

/** The key holding the message array of the keyed envelopes. */
export const MESSAGES_KEY = { messages: 'messages', 'tau-bench': 'traj', 'swe-agent': 'history' } as const;

/** Which envelope a wire value is, or `undefined` when it is none of them. */
export function envelopeKind(wire: unknown): EnvelopeKind | undefined {
  if (Array.isArray(wire)) return isEventStream(wire) ? 'openhands-events' : 'array';
  if (!isWireObject(wire)) return undefined;
  if (Array.isArray(wire['messages'])) return 'messages';
  if (Array.isArray(wire['traj'])) return 'tau-bench';
  const history = wire['history'];
  if (Array.isArray(history)) return isEventStream(history) ? 'openhands-output' : 'swe-agent';
  if (isWireObject(wire['answer_generation'])) return 'toolbench';
  return undefined;
}

/** True when the first object of the array is an OpenHands event (an action or observation, no role). */
export function isEventStream(values: readonly unknown[]): boolean {
  const first = values.find(isWireObject);
  if (first === undefined || 'role' in first) return false;
  return typeof first['action'] === 'string' || typeof first['observation'] === 'string';
}
