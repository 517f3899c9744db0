import type { Role } from '../../model/role.js';

/**
 * How a turn's value is laid out. `hermes`: `<think>`/`<tool_call>`/`<tool_response>` tags (Hermes-agent
 * trajectories, and what condense writes); `function-call`: a glaive/LLaMA-Factory `function_call` turn whose
 * value is the JSON call; `plain`: the value is one piece of text (glaive `observation`, untagged tool turns).
 */
export type TurnStyle = 'hermes' | 'function-call' | 'plain';

/** What a `from` value means: the model role and how the value is laid out. */
export interface FromMeaning {
  readonly role: Role;
  readonly style: TurnStyle;
  readonly known: boolean;
}

const FROM_MEANINGS: Readonly<Record<string, FromMeaning>> = {
  system: { role: 'system', style: 'plain', known: true },
  human: { role: 'user', style: 'plain', known: true },
  user: { role: 'user', style: 'plain', known: true },
  gpt: { role: 'assistant', style: 'hermes', known: true },
  assistant: { role: 'assistant', style: 'hermes', known: true },
  function_call: { role: 'assistant', style: 'function-call', known: true },
  tool: { role: 'tool', style: 'hermes', known: true },
  observation: { role: 'tool', style: 'plain', known: true },
  function: { role: 'tool', style: 'plain', known: true },
};

/** The meaning of a `from` value; unknown speakers are read as user turns (and reported by the decoder). */
export function meaningOf(from: string): FromMeaning {
  return FROM_MEANINGS[from] ?? { role: 'user', style: 'plain', known: false };
}

/** The `from` condense writes for a role (Hermes' names). */
export function defaultFrom(role: Role): string {
  switch (role) {
    case 'system':
      return 'system';
    case 'user':
      return 'human';
    case 'assistant':
      return 'gpt';
    case 'tool':
      return 'tool';
  }
}
