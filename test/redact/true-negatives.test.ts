import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/redact/index.js';
import { fakeBody } from './fixtures.js';

const PYTHON = `
from transformers import AutoTokenizer
import os

tokenizer = AutoTokenizer.from_pretrained("gpt2")
max_tokens = 1024
MAX_TOKENS = 4096
TOKEN_LIMIT = 8000
api_key = os.environ["OPENAI_API_KEY"]
token = tokenizer.encode(text)
password_field = forms.CharField(widget=forms.PasswordInput)
PASSWORD_MIN_LENGTH = 8

class Client:
    def __init__(self, api_key: str, password: str = None):
        self.api_key = api_key
        self.password = password
        self.token = get_token()

def login(username, password):
    if password == confirm_password:
        return authenticate(username=username, password=password)
    response = client.chat.completions.create(model="gpt-4o", max_tokens=max_tokens)
    usage = {"prompt_tokens": 12, "completion_tokens": 30, "total_tokens": 42}
    secret = None
`;

const TYPESCRIPT = `
export interface Config {
  apiKey?: string;
  password: string;
  token: string | undefined;
}
const token = await getToken();
const headers = { Authorization: \`Bearer \${token}\`, 'Content-Type': 'application/json' };
fetch(url, { headers: { 'X-Api-Key': apiKey } });
const maxTokens = options.maxTokens ?? 1000;
if (token === undefined) throw new Error('missing token');
const { password } = req.body;
`;

const ML_CONFIG = `
{
  "bos_token": "<s>",
  "eos_token": "</s>",
  "pad_token": "[PAD]",
  "unk_token": "<unk>",
  "pad_token_id": 0,
  "max_new_tokens": 512,
  "tokenizer_class": "LlamaTokenizer",
  "model_max_length": 4096
}
max_tokens: 4096
temperature: 0.2
stop_token: "<|endoftext|>"
`;

const LOCKFILES = `
"node_modules/vitest": {
  "version": "4.1.12",
  "resolved": "https://registry.npmjs.org/vitest/-/vitest-4.1.12.tgz",
  "integrity": "sha512-${fakeBody(80, 86, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')}=="
},
[[package]]
name = "serde"
version = "1.0.203"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "${fakeBody(81, 64, '0123456789abcdef')}"
golang.org/x/crypto v0.24.0 h1:${fakeBody(82, 43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')}=
requests==2.32.3 --hash=sha256:${fakeBody(83, 64, '0123456789abcdef')}
`;

const IDENTIFIERS = `
request 123e4567-e89b-12d3-a456-426614174000 finished
commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (HEAD -> main, origin/main)
Merge: 4f2a1c9 8be37d0
sha256:${fakeBody(84, 64, '0123456789abcdef')}
docker image ubuntu@sha256:${fakeBody(85, 64, '0123456789abcdef')}
toolu_01A09q90qw90lq917835lq9 msg_01XFDUDYJgAACzvnptvVoYEL req_011CRCqtMz3GzUSbJrSi8Ar1
call_abc123DEF456ghi789 chatcmpl-9pQ4bWkVYiEXAMPLE
`;

const URLS = `
https://github.com/owner/repo/blob/main/src/index.ts?plain=1#L10-L20
git@github.com:owner/repo.git
ssh://git@github.com/owner/repo.git
https://docs.python.org/3/library/os.html#os.environ
https://www.google.com/search?q=how+to+store+api+keys&hl=en
https://example.com/callback?state=abc123&redirect_uri=https%3A%2F%2Fapp.example.com
mailto:someone@example.com
https://user@example.com/
http://localhost:3000/api/items?page=2&per_page=50&sort=desc
`;

const PROSE = `
The password must be at least 8 characters long.
Set the API key in the settings page, then restart.
Use a bearer token for authentication; see the Authorization header docs.
The tokenizer splits the text into tokens; max_tokens caps the output.
I changed the secret handling so the token is never logged.
Authorization: required for every endpoint
Token: see below.
Password: is not stored in plain text
`;

const ENV_DUMP = `
PWD=/home/user/project
OLDPWD=/home/user
PATH=/usr/local/bin:/usr/bin:/bin
HOME=/home/user
TOKENIZERS_PARALLELISM=false
HF_HUB_ENABLE_HF_TRANSFER=1
GOOGLE_APPLICATION_CREDENTIALS=/home/user/.config/gcloud/sa.json
SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.1234
AUTH_ENABLED=true
`;

const PLACEHOLDERS = `
OPENAI_API_KEY=your_api_key_here
ANTHROPIC_API_KEY=<your-key>
export GITHUB_TOKEN=$(gh auth token)
export NPM_TOKEN=\${NPM_TOKEN}
password: \${{ secrets.DB_PASSWORD }}
api_key="YOUR_API_KEY"
DB_PASSWORD=
curl -H "Authorization: Bearer $TOKEN" https://api.example.com
curl -H "Authorization: Bearer <token>" https://api.example.com
postgres://user:{password}@localhost/db
postgresql://\${DB_USER}:\${DB_PASS}@db:5432/app
password = "********"
token: "xxxxxxxxxxxx"
`;

const IMAGE = `data:image/png;base64,iVBORw0KGgo${fakeBody(86, 4000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')}==`;

const ALREADY_MASKED = `
export OPENAI_API_KEY=sk-pro…abcd
DB_PASSWORD=«redacted»
Authorization: Bearer eyJhbG…x9Yk
-----
«redacted private key»
postgres://app:«redacted»@db/app
{"password": "«redacted»", "api_key": "abc123…wxyz"}
`;

const NEGATIVES: Readonly<Record<string, string>> = {
  'Python source': PYTHON,
  'TypeScript source': TYPESCRIPT,
  'ML configuration': ML_CONFIG,
  'lockfile hashes': LOCKFILES,
  'ids, UUIDs and git SHAs': IDENTIFIERS,
  'URLs without credentials': URLS,
  'prose about secrets': PROSE,
  'environment without secrets': ENV_DUMP,
  'references and placeholders': PLACEHOLDERS,
  'base64 image data': IMAGE,
  'already-redacted text': ALREADY_MASKED,
  'LLM logprobs': '{"token": "Hello", "logprob": -0.31}, {"token": " world", "logprob": -1.2}',
  'pagination cursors': '{"next_page_token": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3", "nextPageToken": "Cg9CAQ"}',
  'sk- as English': 'we use sk-learn-compatible-estimators-everywhere in this project',
  'hyphenated CSS class': '<div class="sk-button-primary-large-container-wrapper">',
};

describe('true negatives', () => {
  it.each(Object.entries(NEGATIVES))('leaves %s untouched', (_name, text) => {
    const result = redactText(text);
    expect(result.findings).toEqual([]);
    expect(result.text).toBe(text);
  });

  it('leaves source code untouched in code-file mode too', () => {
    for (const text of [PYTHON, TYPESCRIPT]) expect(redactText(text, { codeFile: true }).text).toBe(text);
  });
});

describe('near misses seen in real transcripts', () => {
  it.each([
    ['date -u in a shell script', 'TIMESTAMP="$(date -u +%Y-%m-%dT%H:%M:%S.%6NZ)"'],
    ['docker run -u uid:gid', 'docker run -u 1000:1000 -v "$PWD:/src" node:20 npm test'],
    ['a localStorage key name', "const STORAGE_KEY = 'vue-todo-list'"],
    [
      'a placeholder password in sample code',
      'mydb = mysql.connector.connect(host="localhost", user="yourusername", password="yourpassword")',
    ],
  ])('leaves %s untouched', (_name, text) => {
    expect(redactText(text).text).toBe(text);
  });
});
