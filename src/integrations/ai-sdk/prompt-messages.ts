import type { LanguageModelMiddleware } from 'ai';

/** The call options a language model middleware sees (`LanguageModelV3CallOptions`). */
export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];

/** A provider-level prompt (`LanguageModelV3Prompt`): what `wrapLanguageModel` middleware rewrites. */
export type ModelPrompt = CallOptions['prompt'];

type PromptMessage = ModelPrompt[number];

interface LooseMessage {
  readonly role: string;
  readonly content: unknown;
  readonly [key: string]: unknown;
}

/**
 * Brings messages the AI SDK codec wrote (the `ModelMessage` shape) into the provider prompt shape: user and
 * assistant content is always a part array there, and images are `file` parts. Messages already in that shape
 * come back as the same objects, so untouched prompt messages stay identical.
 */
export function toModelPrompt(messages: readonly unknown[]): ModelPrompt {
  return messages.map((value) => {
    const message = value as LooseMessage;
    if (message.role === 'system') return value as PromptMessage;
    if (typeof message.content === 'string') {
      return { ...message, content: [{ type: 'text', text: message.content }] } as unknown as PromptMessage;
    }
    if (!Array.isArray(message.content)) return value as PromptMessage;
    const parts = message.content as readonly Record<string, unknown>[];
    if (!parts.some((part) => part['type'] === 'image')) return value as PromptMessage;
    return { ...message, content: parts.map(imageAsFile) } as unknown as PromptMessage;
  });
}

function imageAsFile(part: Record<string, unknown>): Record<string, unknown> {
  if (part['type'] !== 'image') return part;
  const { image, mediaType, type: _type, ...rest } = part;
  return {
    ...rest,
    type: 'file',
    data: image,
    mediaType: typeof mediaType === 'string' ? mediaType : 'image/*',
  };
}
