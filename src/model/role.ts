/** Every role a message can have. Format-specific names (`human`, `gpt`, `function`) exist only inside codecs. */
export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** Who speaks a message: the closed role union of the transcript model. */
export type Role = (typeof ROLES)[number];

/** True when `value` is one of the four roles. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
