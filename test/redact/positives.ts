/**
 * Realistic texts holding secrets, at least one per built-in kind, with the secrets no part of which may
 * survive. Shared by the true-positive tests and the planting suites.
 */
import type { BuiltinSecretKind } from '../../src/redact/index.js';
import { FAKE, fakeBody, fakePem, pemBodyLine } from './fixtures.js';

/** A realistic text holding secrets of one kind. */
export interface Positive {
  readonly name: string;
  readonly kind: BuiltinSecretKind;
  readonly text: string;
  /** Secrets of which no hidden part may remain. */
  readonly secrets: readonly string[];
}

/** The part of a secret a mask must hide: all of a short one, the middle of a long one. */
export function hiddenPart(secret: string): string {
  return secret.length >= 24 ? secret.slice(6, -4) : secret;
}

const SVC = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'demo-project-123',
    private_key_id: FAKE.hex40,
    private_key: `${fakePem('PRIVATE KEY')}\n`,
    client_email: 'robot@demo-project-123.iam.gserviceaccount.com',
    client_id: '109876543210987654321',
  },
  null,
  2,
);

const VENDOR: readonly Positive[] = [
  {
    name: 'OpenAI project key in prose',
    kind: 'openai-key',
    text: `my key is ${FAKE.openai}, thanks`,
    secrets: [FAKE.openai],
  },
  {
    name: 'OpenAI legacy key',
    kind: 'openai-key',
    text: `openai.api_key = '${FAKE.openaiLegacy}'`,
    secrets: [FAKE.openaiLegacy],
  },
  {
    name: 'Anthropic key',
    kind: 'anthropic-key',
    text: `x-api-key: ${FAKE.anthropic}`,
    secrets: [FAKE.anthropic],
  },
  {
    name: 'OpenRouter key',
    kind: 'openrouter-key',
    text: `OPENROUTER=${FAKE.openrouter}`,
    secrets: [FAKE.openrouter],
  },
  {
    name: 'GitHub classic token',
    kind: 'github-token',
    text: `git push https://${FAKE.githubClassic}@github.com/o/r.git`,
    secrets: [FAKE.githubClassic],
  },
  {
    name: 'GitHub OAuth token',
    kind: 'github-token',
    text: `token=${FAKE.githubOauth}`,
    secrets: [FAKE.githubOauth],
  },
  {
    name: 'GitHub app token',
    kind: 'github-token',
    text: `"token": "${FAKE.githubApp}"`,
    secrets: [FAKE.githubApp],
  },
  {
    name: 'GitHub fine-grained token',
    kind: 'github-pat',
    text: `gh auth login with ${FAKE.githubFineGrained}`,
    secrets: [FAKE.githubFineGrained],
  },
  {
    name: 'GitLab token',
    kind: 'gitlab-token',
    text: `glab auth login --token ${FAKE.gitlab}`,
    secrets: [FAKE.gitlab],
  },
  { name: 'Slack bot token', kind: 'slack-token', text: `SLACK=${FAKE.slackBot}`, secrets: [FAKE.slackBot] },
  {
    name: 'Slack app token',
    kind: 'slack-token',
    text: `socket mode: ${FAKE.slackApp}`,
    secrets: [FAKE.slackApp],
  },
  {
    name: 'Slack webhook',
    kind: 'slack-webhook',
    text: `curl -X POST https://hooks.slack.com/services/${FAKE.slackWebhookPath}`,
    secrets: [FAKE.slackWebhookPath],
  },
  {
    name: 'Stripe live key',
    kind: 'stripe-key',
    text: `stripe.api_key = "${FAKE.stripeLive}"`,
    secrets: [FAKE.stripeLive],
  },
  {
    name: 'Stripe restricted key',
    kind: 'stripe-key',
    text: `key: ${FAKE.stripeRestricted}`,
    secrets: [FAKE.stripeRestricted],
  },
  {
    name: 'Stripe webhook secret',
    kind: 'stripe-key',
    text: `endpoint secret ${FAKE.stripeWebhook}`,
    secrets: [FAKE.stripeWebhook],
  },
  {
    name: 'AWS access key id',
    kind: 'aws-access-key-id',
    text: `aws_access_key_id = ${FAKE.awsAccessKeyId}`,
    secrets: [FAKE.awsAccessKeyId],
  },
  {
    name: 'AWS temporary key id',
    kind: 'aws-access-key-id',
    text: `"AccessKeyId": "${FAKE.awsTemporaryKeyId}"`,
    secrets: [FAKE.awsTemporaryKeyId],
  },
  {
    name: 'AWS secret key in credentials file',
    kind: 'aws-secret-key',
    text: `[default]\naws_secret_access_key = ${FAKE.awsSecret}\n`,
    secrets: [FAKE.awsSecret],
  },
  {
    name: 'AWS secret key in JSON',
    kind: 'aws-secret-key',
    text: `{"SecretAccessKey": "${FAKE.awsSecret}"}`,
    secrets: [FAKE.awsSecret],
  },
  {
    name: 'Google API key',
    kind: 'google-api-key',
    text: `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${FAKE.google}`,
    secrets: [FAKE.google],
  },
  {
    name: 'Google OAuth access token',
    kind: 'google-oauth',
    text: `access: ${FAKE.googleOauth}`,
    secrets: [FAKE.googleOauth],
  },
  {
    name: 'Google OAuth client secret',
    kind: 'google-oauth',
    text: `{"client_secret":"${FAKE.googleClientSecret}"}`,
    secrets: [FAKE.googleClientSecret],
  },
  {
    name: 'Hugging Face token',
    kind: 'huggingface-token',
    text: `huggingface-cli login --token ${FAKE.huggingface}`,
    secrets: [FAKE.huggingface],
  },
  {
    name: 'npm token',
    kind: 'npm-token',
    text: `//registry.npmjs.org/:_authToken=${FAKE.npm}`,
    secrets: [FAKE.npm],
  },
  {
    name: 'PyPI token',
    kind: 'pypi-token',
    text: `[pypi]\n  username = __token__\n  password = ${FAKE.pypi}\n`,
    secrets: [FAKE.pypi],
  },
  {
    name: 'Twilio API key',
    kind: 'twilio-key',
    text: `twilio api key ${FAKE.twilio}`,
    secrets: [FAKE.twilio],
  },
  { name: 'SendGrid key', kind: 'sendgrid-key', text: `SENDGRID=${FAKE.sendgrid}`, secrets: [FAKE.sendgrid] },
  {
    name: 'Telegram bot token',
    kind: 'telegram-bot-token',
    text: `https://api.telegram.org/bot${FAKE.telegram}/sendMessage`,
    secrets: [FAKE.telegram],
  },
  {
    name: 'Discord bot token',
    kind: 'discord-token',
    text: `client.login("${FAKE.discord}")`,
    secrets: [FAKE.discord],
  },
  {
    name: 'Discord webhook',
    kind: 'discord-webhook',
    text: `https://discord.com/api/webhooks/123456789012345678/${FAKE.discordWebhookToken}`,
    secrets: [FAKE.discordWebhookToken],
  },
  { name: 'Groq key', kind: 'groq-key', text: `export GROQ=${FAKE.groq}`, secrets: [FAKE.groq] },
  { name: 'xAI key', kind: 'xai-key', text: `xai-${fakeBody(50, 80)}`, secrets: [fakeBody(50, 80)] },
  {
    name: 'Perplexity key',
    kind: 'perplexity-key',
    text: `pplx-${fakeBody(51, 48)}`,
    secrets: [fakeBody(51, 48)],
  },
  {
    name: 'Replicate token',
    kind: 'replicate-token',
    text: `r8_${fakeBody(52, 37)}`,
    secrets: [fakeBody(52, 37)],
  },
  {
    name: 'DigitalOcean token',
    kind: 'digitalocean-token',
    text: `dop_v1_${fakeBody(53, 64, '0123456789abcdef')}`,
    secrets: [fakeBody(53, 64, '0123456789abcdef')],
  },
  {
    name: 'Shopify token',
    kind: 'shopify-token',
    text: `shpat_${fakeBody(54, 32, '0123456789abcdef')}`,
    secrets: [fakeBody(54, 32, '0123456789abcdef')],
  },
  {
    name: 'Linear key',
    kind: 'linear-key',
    text: `lin_api_${fakeBody(55, 40)}`,
    secrets: [fakeBody(55, 40)],
  },
  {
    name: 'Notion token',
    kind: 'notion-token',
    text: `ntn_${fakeBody(56, 46)}`,
    secrets: [fakeBody(56, 46)],
  },
  {
    name: 'Vault token',
    kind: 'vault-token',
    text: `VAULT=hvs.${fakeBody(57, 90)}`,
    secrets: [fakeBody(57, 90)],
  },
  {
    name: 'Doppler token',
    kind: 'doppler-token',
    text: `dp.st.prd.${fakeBody(58, 40)}`,
    secrets: [fakeBody(58, 40)],
  },
  {
    name: 'Sentry token',
    kind: 'sentry-token',
    text: `sntrys_${fakeBody(59, 60)}`,
    secrets: [fakeBody(59, 60)],
  },
  {
    name: 'Grafana token',
    kind: 'grafana-token',
    text: `glsa_${fakeBody(61, 32)}_${fakeBody(62, 8, '0123456789abcdef')}`,
    secrets: [fakeBody(61, 32)],
  },
  {
    name: 'Tavily key',
    kind: 'tavily-key',
    text: `tvly-dev-${fakeBody(63, 32)}`,
    secrets: [fakeBody(63, 32)],
  },
];

const STRUCTURED: readonly Positive[] = [
  {
    name: 'RSA private key',
    kind: 'private-key',
    text: `cat id_rsa\n${fakePem('RSA PRIVATE KEY')}\n$ `,
    secrets: [pemBodyLine(0), pemBodyLine(5)],
  },
  {
    name: 'OpenSSH private key',
    kind: 'private-key',
    text: fakePem('OPENSSH PRIVATE KEY'),
    secrets: [pemBodyLine(2)],
  },
  {
    name: 'PKCS#8 key with escaped newlines',
    kind: 'private-key',
    text: `"key": "${fakePem('PRIVATE KEY', 6, '\\n')}\\n"`,
    secrets: [pemBodyLine(3)],
  },
  {
    name: 'encrypted private key',
    kind: 'private-key',
    text: fakePem('ENCRYPTED PRIVATE KEY'),
    secrets: [pemBodyLine(1)],
  },
  {
    name: 'PGP private key block',
    kind: 'private-key',
    text: fakePem('PGP PRIVATE KEY BLOCK'),
    secrets: [pemBodyLine(4)],
  },
  {
    name: 'truncated private key',
    kind: 'private-key',
    text: fakePem('EC PRIVATE KEY').split('\n').slice(0, 4).join('\n'),
    secrets: [pemBodyLine(1), pemBodyLine(2)],
  },
  {
    name: 'age secret key',
    kind: 'private-key',
    text: `AGE-SECRET-KEY-1${fakeBody(64, 58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`,
    secrets: [fakeBody(64, 58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')],
  },
  {
    name: 'GCP service account file',
    kind: 'gcp-service-account',
    text: SVC,
    secrets: [FAKE.hex40, pemBodyLine(2)],
  },
  { name: 'JWT in prose', kind: 'jwt', text: `the session token was ${FAKE.jwt}.`, secrets: [FAKE.jwt] },
  {
    name: 'Bearer header',
    kind: 'authorization-header',
    text: `Authorization: Bearer ${FAKE.sessionId}`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'Basic header',
    kind: 'authorization-header',
    text: 'curl -H "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l" https://x',
    secrets: ['YWxhZGRpbjpvcGVuc2VzYW1l'],
  },
  {
    name: 'token header in JSON',
    kind: 'authorization-header',
    text: `{"headers": {"Authorization": "token ${FAKE.hex40}"}}`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'proxy authorization',
    kind: 'authorization-header',
    text: `Proxy-Authorization: Basic ${FAKE.base64Key}`,
    secrets: [FAKE.base64Key],
  },
  {
    name: 'Python headers dict',
    kind: 'authorization-header',
    text: `requests.get(url, headers={'Authorization': 'Bearer ${FAKE.sessionId}'})`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'digest authorization',
    kind: 'authorization-header',
    text: `Authorization: Digest username="bob", realm="x", nonce="${FAKE.hex32}", response="${FAKE.hex40}"`,
    secrets: [FAKE.hex32, FAKE.hex40],
  },
  {
    name: 'X-Api-Key header in curl',
    kind: 'api-key-header',
    text: `curl -H 'X-Api-Key: ${FAKE.hex32}' https://api.example.com/v1`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'GitLab PRIVATE-TOKEN header',
    kind: 'api-key-header',
    text: `PRIVATE-TOKEN: ${FAKE.sessionId}`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'Cookie header',
    kind: 'cookie',
    text: `Cookie: sessionid=${FAKE.sessionId}; csrftoken=${FAKE.hex32}`,
    secrets: [FAKE.sessionId, FAKE.hex32],
  },
  {
    name: 'Set-Cookie header',
    kind: 'cookie',
    text: `Set-Cookie: __Host-sid=${FAKE.base64Key}; Path=/; Secure; HttpOnly`,
    secrets: [FAKE.base64Key],
  },
  {
    name: 'curl cookie flag',
    kind: 'cookie',
    text: `curl -b 'auth=${FAKE.hex40}' https://x`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'postgres URL',
    kind: 'connection-string',
    text: 'DATABASE_URL used: postgres://app:Sup3r-S3cret@db.internal:5432/app',
    secrets: ['Sup3r-S3cret'],
  },
  {
    name: 'postgresql+driver URL',
    kind: 'connection-string',
    text: 'engine = create_engine("postgresql+psycopg2://scott:tiger-9981@localhost/test")',
    secrets: ['tiger-9981'],
  },
  {
    name: 'mysql URL',
    kind: 'connection-string',
    text: 'mysql://root:my$ecretPw@127.0.0.1:3306/shop',
    secrets: ['my$ecretPw'],
  },
  {
    name: 'mongodb+srv URL with @ in password',
    kind: 'connection-string',
    text: 'mongodb+srv://admin:p@ssw0rd!@cluster0.ab1cd.mongodb.net/db?retryWrites=true',
    secrets: ['p@ssw0rd!'],
  },
  {
    name: 'redis URL without user',
    kind: 'connection-string',
    text: 'redis://:Redis-Pass-42@cache:6379/0',
    secrets: ['Redis-Pass-42'],
  },
  {
    name: 'amqp URL',
    kind: 'connection-string',
    text: 'amqp://guest:rabbit-Secret-1@mq:5672/vhost',
    secrets: ['rabbit-Secret-1'],
  },
  {
    name: 'ADO.NET connection string',
    kind: 'connection-string',
    text: '"Server=tcp:sql.example.net,1433;Database=app;User ID=sa;Password=Pa55w0rd!x;Encrypt=True;"',
    secrets: ['Pa55w0rd!x'],
  },
  {
    name: 'Azure storage connection string',
    kind: 'connection-string',
    text: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${FAKE.base64Key}==;EndpointSuffix=core.windows.net`,
    secrets: [FAKE.base64Key],
  },
  {
    name: 'user:password in an https URL',
    kind: 'url-credentials',
    text: 'fetching https://deploy:hunter2-Xy@artifacts.example.com/repo/pkg.tgz',
    secrets: ['hunter2-Xy'],
  },
  {
    name: 'x-access-token in a git remote',
    kind: 'url-credentials',
    text: `git clone https://x-access-token:${FAKE.sessionId}@github.com/o/r.git`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'Sentry DSN',
    kind: 'url-credentials',
    text: `SENTRY_DSN=https://${FAKE.hex32}@o123456.ingest.sentry.io/4504`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'access_token query parameter',
    kind: 'url-query-secret',
    text: `GET /api/me?access_token=${FAKE.sessionId}&fields=name`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'presigned S3 URL',
    kind: 'url-query-secret',
    text: `https://b.s3.amazonaws.com/o.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${FAKE.awsAccessKeyId}%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${fakeBody(70, 64, '0123456789abcdef')}`,
    secrets: [fakeBody(70, 64, '0123456789abcdef'), FAKE.awsAccessKeyId],
  },
  {
    name: 'OAuth code in a redirect',
    kind: 'url-query-secret',
    text: `http://localhost:8080/callback?code=4/0Ab${FAKE.sessionId}&state=xyz`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'implicit-flow fragment',
    kind: 'url-query-secret',
    text: `https://app.example.com/cb#access_token=${FAKE.sessionId}&token_type=bearer`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'JWT id_token in a fragment',
    kind: 'jwt',
    text: `https://app.example.com/cb#id_token=${FAKE.jwt}&token_type=bearer`,
    secrets: [FAKE.jwt],
  },
  {
    name: 'signature parameter',
    kind: 'url-query-secret',
    text: `https://cdn.example.com/file.zip?expires=1700000000&signature=${FAKE.hex40}`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'OAuth password grant body',
    kind: 'form-body',
    text: "curl -d 'grant_type=password&username=bob&password=Tr0ub4dor-3&client_id=app' https://idp/token",
    secrets: ['Tr0ub4dor-3'],
  },
  {
    name: 'client credentials body',
    kind: 'form-body',
    text: `client_secret=${FAKE.hex40}&grant_type=client_credentials`,
    secrets: [FAKE.hex40],
  },
];

const NAMED: readonly Positive[] = [
  {
    name: 'shell export',
    kind: 'secret-assignment',
    text: `$ export MY_SERVICE_TOKEN=${FAKE.hex40}`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'inline env before a command',
    kind: 'secret-assignment',
    text: 'PGPASSWORD=Pg-Secret-77 psql -h db -U app',
    secrets: ['Pg-Secret-77'],
  },
  {
    name: '.env file',
    kind: 'secret-assignment',
    text: 'NODE_ENV=production\nDB_PASSWORD="s3cr3t pass phrase"\nSTRIPE_SECRET=abc123XYZ\n',
    secrets: ['s3cr3t pass phrase', 'abc123XYZ'],
  },
  {
    name: 'lowercase .env key at line start',
    kind: 'secret-assignment',
    text: 'api_key=0123abcd4567efgh\n',
    secrets: ['0123abcd4567efgh'],
  },
  {
    name: 'YAML key',
    kind: 'secret-assignment',
    text: 'database:\n  host: db\n  password: Yaml-Pass-9\n',
    secrets: ['Yaml-Pass-9'],
  },
  {
    name: 'docker compose environment list',
    kind: 'secret-assignment',
    text: 'environment:\n  - POSTGRES_PASSWORD=compose-pw-1\n',
    secrets: ['compose-pw-1'],
  },
  {
    name: 'docker compose environment map',
    kind: 'secret-assignment',
    text: 'environment:\n  MYSQL_ROOT_PASSWORD: root-pw-22\n',
    secrets: ['root-pw-22'],
  },
  {
    name: 'Dockerfile ENV',
    kind: 'secret-assignment',
    text: `FROM node:20\nENV NPM_AUTH_TOKEN=${FAKE.hex32}\n`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'Dockerfile ARG',
    kind: 'secret-assignment',
    text: `ARG GH_TOKEN=${FAKE.hex40}\n`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'Dockerfile legacy ENV',
    kind: 'secret-assignment',
    text: 'ENV SECRET_KEY django-insecure-abc123\n',
    secrets: ['django-insecure-abc123'],
  },
  {
    name: 'fish set',
    kind: 'secret-assignment',
    text: `set -gx ANTHROPIC_KEY ${FAKE.hex40}\n`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'PowerShell env',
    kind: 'secret-assignment',
    text: `$env:API_TOKEN = "${FAKE.hex32}"`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'Kubernetes env entry',
    kind: 'secret-assignment',
    text: '        env:\n        - name: DB_PASSWORD\n          value: k8s-Secret-5\n',
    secrets: ['k8s-Secret-5'],
  },
  {
    name: 'ECS env entry',
    kind: 'secret-assignment',
    text: '{"name": "APP_SECRET", "value": "ecs-Secret-6"}',
    secrets: ['ecs-Secret-6'],
  },
  {
    name: 'YAML block scalar',
    kind: 'secret-assignment',
    text: 'tls:\n  client_secret: |\n    line-one-Secret-1\n    line-two-Secret-2\nnext: value\n',
    secrets: ['line-one-Secret-1', 'line-two-Secret-2'],
  },
  {
    name: 'properties file',
    kind: 'secret-assignment',
    text: 'spring.datasource.password=Spring-Pw-3\n',
    secrets: ['Spring-Pw-3'],
  },
  {
    name: '.netrc',
    kind: 'secret-assignment',
    text: 'machine api.example.com login bob password Netrc-Pw-8\n',
    secrets: ['Netrc-Pw-8'],
  },
  {
    name: 'JSON password field',
    kind: 'secret-field',
    text: '{"user": "bob", "password": "correct horse battery staple"}',
    secrets: ['correct horse battery staple'],
  },
  {
    name: 'camelCase JSON field',
    kind: 'secret-field',
    text: `{"clientSecret":"${FAKE.hex32}","clientId":"abc"}`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'Python dict',
    kind: 'secret-field',
    text: `config = {'api_key': '${FAKE.hex32}', 'model': 'x'}`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'keyword argument',
    kind: 'secret-field',
    text: 'conn = psycopg2.connect(host="db", user="app", password="Kw-Pass-4")',
    secrets: ['Kw-Pass-4'],
  },
  {
    name: 'object literal',
    kind: 'secret-field',
    text: `const client = new Client({ authToken: "${FAKE.hex40}" });`,
    secrets: [FAKE.hex40],
  },
  {
    name: 'escaped JSON inside JSON',
    kind: 'secret-field',
    text: `{"body": "{\\"refresh_token\\": \\"${FAKE.sessionId}\\"}"}`,
    secrets: [FAKE.sessionId],
  },
  {
    name: 'TOML inline table',
    kind: 'secret-field',
    text: 'db = { user = "app", password = "Toml-Pass-5" }\n',
    secrets: ['Toml-Pass-5'],
  },
  {
    name: 'long flag',
    kind: 'secret-flag',
    text: 'docker login --username bob --password Flag-Pw-6 registry.example.com',
    secrets: ['Flag-Pw-6'],
  },
  {
    name: 'long flag with =',
    kind: 'secret-flag',
    text: `mytool --api-key=${FAKE.hex32} run`,
    secrets: [FAKE.hex32],
  },
  {
    name: 'curl -u',
    kind: 'secret-flag',
    text: 'curl -u admin:Curl-Pw-7 https://jenkins.example.com/api/json',
    secrets: ['Curl-Pw-7'],
  },
  {
    name: 'mysql -p',
    kind: 'secret-flag',
    text: 'mysql -h db -u root -pMysql-Pw-8 shop',
    secrets: ['Mysql-Pw-8'],
  },
  { name: 'sshpass', kind: 'secret-flag', text: "sshpass -p 'Ssh-Pw-9' ssh bob@host", secrets: ['Ssh-Pw-9'] },
];

/** One or more realistic examples of every built-in kind. */
export const POSITIVES: readonly Positive[] = [...VENDOR, ...STRUCTURED, ...NAMED];
