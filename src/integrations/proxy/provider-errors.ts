import type { ProxyProtocol } from './routes.js';

/**
 * An error body shaped like the provider's own, so SDKs surface the message as they would the provider's:
 * Anthropic `{type: 'error', error: {type, message}}`, OpenAI `{error: {message, type, param, code}}`.
 */
export function providerErrorBody(
  protocol: ProxyProtocol | undefined,
  type: string,
  message: string,
): string {
  const text = `condense proxy: ${message}`;
  if (protocol === 'anthropic') return JSON.stringify({ type: 'error', error: { type, message: text } });
  return JSON.stringify({ error: { message: text, type, param: null, code: type } });
}
