import { modelMessageSchema } from 'ai';

/** Validates every message with the AI SDK's own `modelMessageSchema` and returns the failures. */
export function schemaFailures(wire: unknown): string[] {
  const messages = Array.isArray(wire) ? wire : (wire as { messages: unknown[] }).messages;
  return messages.flatMap((message, index) => {
    const result = modelMessageSchema.safeParse(message);
    return result.success ? [] : [`message ${index}: ${result.error.message.slice(0, 300)}`];
  });
}
