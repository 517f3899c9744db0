/**
 * Every kind of secret the built-in rules report, grouped by family. Findings name the kind, never the secret;
 * the kind is what a user filters on and what `condense redact --json` counts.
 */
export const SECRET_KINDS = [
  // vendor-prefixed tokens
  'openai-key',
  'openrouter-key',
  'anthropic-key',
  'github-token',
  'github-pat',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'aws-access-key-id',
  'aws-secret-key',
  'google-api-key',
  'google-oauth',
  'huggingface-token',
  'npm-token',
  'pypi-token',
  'twilio-key',
  'sendgrid-key',
  'telegram-bot-token',
  'discord-token',
  'discord-webhook',
  'groq-key',
  'xai-key',
  'perplexity-key',
  'replicate-token',
  'digitalocean-token',
  'shopify-token',
  'linear-key',
  'notion-token',
  'vault-token',
  'doppler-token',
  'sentry-token',
  'grafana-token',
  'tavily-key',
  // structured credentials
  'private-key',
  'gcp-service-account',
  'jwt',
  'authorization-header',
  'api-key-header',
  'cookie',
  'connection-string',
  'url-credentials',
  'url-query-secret',
  'form-body',
  // name-based (skipped in code-file mode)
  'secret-assignment',
  'secret-field',
  'secret-flag',
] as const;

/** A kind of secret found by a built-in rule. */
export type BuiltinSecretKind = (typeof SECRET_KINDS)[number];

/** The kind of a secret found by a user pattern: `custom:` followed by the pattern's name. */
export type CustomSecretKind = `custom:${string}`;

/** What a finding says was found. */
export type SecretKind = BuiltinSecretKind | CustomSecretKind;

/** True when `value` names a built-in kind. */
export function isBuiltinSecretKind(value: string): value is BuiltinSecretKind {
  return (SECRET_KINDS as readonly string[]).includes(value);
}
