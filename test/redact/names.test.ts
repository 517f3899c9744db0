import { describe, expect, it } from 'vitest';
import { classifySecretName } from '../../src/redact/index.js';

describe('classifySecretName', () => {
  it.each([
    ['OPENAI_API_KEY', 'secret'],
    ['apiKey', 'secret'],
    ['XApiKey', 'secret'],
    ['x-api-key', 'secret'],
    ['GITHUB_TOKEN', 'secret'],
    ['access_token', 'secret'],
    ['refreshToken', 'secret'],
    ['_authToken', 'secret'],
    ['client_secret', 'secret'],
    ['AWS_SECRET_ACCESS_KEY', 'secret'],
    ['STRIPE_KEY', 'secret'],
    ['BILLING_KEY', 'weak'],
    ['private_key', 'secret'],
    ['BASIC_AUTH', 'secret'],
    ['GH_PAT', 'secret'],
    ['apikey', 'secret'],
    ['DB_PASSWORD', 'password'],
    ['password', 'password'],
    ['passwd', 'password'],
    ['MYSQL_PWD', 'password'],
    ['password_confirmation', 'password'],
    ['token', 'weak'],
  ])('%s is %s', (name, expected) => {
    expect(classifySecretName(name)).toBe(expected);
  });

  it.each([
    'max_tokens',
    'MAX_TOKENS',
    'maxTokens',
    'tokenizer',
    'TOKEN_LIMIT',
    'password_field',
    'passwordInput',
    'PASSWORD_MIN_LENGTH',
    'eos_token',
    'pad_token',
    'next_page_token',
    'cancellationToken',
    'current_token',
    'PWD',
    'OLDPWD',
    'key',
    'primary_key',
    'PUBLIC_KEY',
    'cache_key',
    'sort_key',
    'API_KEY_FILE',
    'AUTH_ENABLED',
    'auth',
    'signature',
    'secret_name',
    'prompt_tokens',
    'storageKey',
  ])('%s is not a secret name', (name) => {
    expect(classifySecretName(name)).toBeUndefined();
  });
});
