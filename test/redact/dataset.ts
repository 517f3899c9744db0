/**
 * Deterministic generator of a realistic agent-transcript dataset: OpenAI chat JSONL, one coding-agent run per
 * line (system prompt, task, tool calls with shell commands and file edits, tool output made of source code,
 * test logs, JSON API responses, git logs, environment listings, and the occasional secret). Used by the
 * redaction benchmark (`condense redact` in process and end to end against bare `JSON.parse`/`stringify`) and
 * by the tests that check the fast paths against the full scan. Nothing here is committed as data.
 */
import { prng } from '../session/generate-session.js';
import { FAKE, fakeBody } from './fixtures.js';

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const PROSE = (
  'the a an of to in for on with this that it is was be by as from at or and not but if then when so we ' +
  'function test file module error value result request response config option user session cache build ' +
  'run check update fix add remove change return call parse read write handler server client model ' +
  'path line output input list item index type name field schema table query route page view'
).split(' ');
const NAMES = (
  'user account order invoice payment cart product item session request response parser lexer handler ' +
  'router client server cache store queue worker job task report config settings auth login profile'
).split(' ');
const DIRS = 'src lib app tests test scripts packages/core packages/web internal cmd pkg utils'.split(' ');

const SYSTEM = [
  'You are a software engineering agent working in a sandboxed repository. Use the tools to inspect files,',
  'run commands and edit code. Think step by step, keep changes minimal and run the tests before finishing.',
  'Never print API keys, tokens or passwords; read credentials from the environment. Tools: bash (run a',
  'shell command), str_replace_editor (view, create and edit files), submit (finish with a summary).',
  'When a command fails, read the error output carefully and fix the cause rather than the symptom.',
].join('\n');

/** Builds one dataset with its own random stream. */
class DatasetBuilder {
  readonly #random: () => number;

  constructor(seed: number) {
    this.#random = prng(seed);
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)] as T;
  }

  #int(low: number, high: number): number {
    return Math.floor(low + this.#random() * (high - low));
  }

  #id(length: number, alphabet = ALNUM): string {
    return fakeBody(this.#int(1, 1e9), length, alphabet);
  }

  #uuid(): string {
    const hex = this.#id(32, HEX);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  }

  #words(count: number): string {
    const out: string[] = [];
    for (let index = 0; index < count; index++) {
      const word = this.#pick(PROSE);
      out.push(this.#random() < 0.06 ? `${word}.\n` : this.#random() < 0.05 ? `\`${word}\`` : word);
    }
    return out.join(' ');
  }

  #path(ext: string): string {
    return `${this.#pick(DIRS)}/${this.#pick(NAMES)}_${this.#pick(NAMES)}.${ext}`;
  }

  #python(): string {
    const name = this.#pick(NAMES);
    const lines = [
      'import os',
      'import json',
      'from typing import Optional',
      '',
      `class ${name[0]?.toUpperCase()}${name.slice(1)}Client:`,
      '    def __init__(self, api_key: Optional[str] = None, timeout: float = 30.0):',
      '        self.api_key = api_key or os.environ.get("SERVICE_API_KEY")',
      '        self.timeout = timeout',
      '        self.session = requests.Session()',
      `        self.base_url = "https://api.example.com/v2/${name}s"`,
      '',
      `    def get_${name}(self, ${name}_id: str) -> dict:`,
      `        response = self.session.get(f"{self.base_url}/{${name}_id}", timeout=self.timeout)`,
      '        response.raise_for_status()',
      '        return response.json()',
      '',
      '    def count_tokens(self, text: str, max_tokens: int = 4096) -> int:',
      '        tokens = self.tokenizer.encode(text)',
      '        return min(len(tokens), max_tokens)',
    ];
    for (let index = 0; index < this.#int(2, 8); index++) {
      lines.push('', `    def ${this.#pick(NAMES)}_${this.#pick(NAMES)}(self, value):`);
      lines.push(`        # ${this.#words(10).replaceAll('\n', ' ')}`);
      lines.push(
        `        if value is None:`,
        `            raise ValueError("${this.#words(5).replaceAll('\n', ' ')}")`,
      );
      lines.push(`        return {"${this.#pick(NAMES)}": value, "count": ${this.#int(0, 1000)}}`);
    }
    return lines.join('\n');
  }

  #typescript(): string {
    const name = this.#pick(NAMES);
    const lines = [
      `import { ${name}Schema } from './${name}-schema.js';`,
      `import type { Options } from '../options.js';`,
      '',
      `export interface ${name[0]?.toUpperCase()}${name.slice(1)}Options {`,
      '  readonly baseUrl: string;',
      '  readonly apiKey?: string;',
      '  readonly maxTokens?: number;',
      '}',
      '',
      `export async function fetch${name[0]?.toUpperCase()}${name.slice(1)}(id: string, options: Options) {`,
      '  const token = await getToken();',
      `  const headers = { Authorization: \`Bearer \${token}\`, 'Content-Type': 'application/json' };`,
      `  const response = await fetch(\`\${options.baseUrl}/items/\${id}?page=2&per_page=50\`, { headers });`,
      `  if (!response.ok) throw new Error(\`request failed: \${response.status}\`);`,
      `  return ${name}Schema.parse(await response.json());`,
      '}',
    ];
    for (let index = 0; index < this.#int(2, 8); index++) {
      lines.push('', `export const ${this.#pick(NAMES)}${this.#int(1, 99)} = (input: string): boolean => {`);
      lines.push(`  // ${this.#words(9).replaceAll('\n', ' ')}`);
      lines.push(`  return input.length > ${this.#int(1, 80)} && input !== '${this.#pick(PROSE)}';`, '};');
    }
    return lines.join('\n');
  }

  #testLog(): string {
    const lines = [
      '============================= test session starts ==============================',
      `platform linux -- Python 3.11.${this.#int(1, 9)}, pytest-8.2.${this.#int(0, 3)}, pluggy-1.5.0`,
      `rootdir: /workspace/${this.#pick(NAMES)}-service`,
      `collected ${this.#int(10, 300)} items`,
      '',
    ];
    for (let index = 0; index < this.#int(3, 20); index++)
      lines.push(
        `tests/test_${this.#pick(NAMES)}.py ${'.'.repeat(this.#int(1, 40))}${this.#random() < 0.2 ? 'F' : ''} [ ${this.#int(1, 99)}%]`,
      );
    lines.push('', '___________________________ test_refresh_session ___________________________', '');
    lines.push('    def test_refresh_session(client):', '>       assert client.refresh()["status"] == "ok"');
    lines.push("E       KeyError: 'status'", '', `tests/test_auth.py:${this.#int(10, 400)}: KeyError`);
    lines.push(
      `=========== 1 failed, ${this.#int(10, 300)} passed in ${this.#int(1, 60)}.${this.#int(10, 99)}s ===========`,
    );
    return lines.join('\n');
  }

  #apiJson(): string {
    const items = [];
    for (let index = 0; index < this.#int(2, 12); index++) {
      items.push({
        id: this.#uuid(),
        sha: this.#id(40, HEX),
        name: `${this.#pick(NAMES)}-${this.#pick(NAMES)}`,
        created_at: `2025-0${this.#int(1, 9)}-1${this.#int(0, 9)}T0${this.#int(0, 9)}:1${this.#int(0, 9)}:00Z`,
        html_url: `https://github.com/acme/${this.#pick(NAMES)}/pull/${this.#int(1, 5000)}`,
        labels: [this.#pick(PROSE), this.#pick(PROSE)],
        body: this.#words(this.#int(5, 60)),
      });
    }
    const body = {
      data: items,
      next_page_token: this.#id(24),
      usage: { prompt_tokens: this.#int(10, 9000), completion_tokens: this.#int(10, 900) },
    };
    return JSON.stringify(body, null, this.#random() < 0.5 ? 2 : undefined);
  }

  #gitLog(): string {
    const lines: string[] = [];
    for (let index = 0; index < this.#int(3, 15); index++)
      lines.push(`${this.#id(40, HEX)} ${this.#words(this.#int(3, 10)).replaceAll('\n', ' ')}`);
    return lines.join('\n');
  }

  #listing(): string {
    const lines = [`total ${this.#int(8, 400)}`];
    for (let index = 0; index < this.#int(4, 25); index++)
      lines.push(
        `-rw-r--r-- 1 user user ${String(this.#int(100, 90000)).padStart(6)} Jan ${this.#int(1, 28)} 10:${this.#int(10, 59)} ${this.#pick(NAMES)}_${this.#pick(NAMES)}.${this.#pick(['py', 'ts', 'json', 'md'])}`,
      );
    return lines.join('\n');
  }

  #env(): string {
    return [
      'HOME=/home/user',
      'PATH=/usr/local/bin:/usr/bin:/bin',
      'PWD=/workspace',
      'NODE_ENV=development',
      `HOSTNAME=${this.#id(12, HEX)}`,
      'LANG=C.UTF-8',
      'TOKENIZERS_PARALLELISM=false',
    ].join('\n');
  }

  /** A secret in one of the shapes agents leak them, about one tool output in fifty. */
  #secret(): string {
    switch (this.#int(0, 6)) {
      case 0:
        return `OPENAI_API_KEY=${FAKE.openai}`;
      case 1:
        return `curl -H "Authorization: Bearer ${this.#id(40)}" https://api.example.com/v1/me`;
      case 2:
        return `DATABASE_URL=postgres://app:${this.#id(16)}@db.internal:5432/app`;
      case 3:
        return `{"headers": {"Authorization": "Bearer ${this.#id(40)}"}}`;
      case 4:
        return `export GITHUB_TOKEN=${FAKE.githubClassic}`;
      default:
        return `password: ${this.#id(14)}`;
    }
  }

  #toolOutput(): string {
    const kind = this.#int(0, 9);
    const body = [
      () => this.#python(),
      () => this.#typescript(),
      () => this.#testLog(),
      () => this.#apiJson(),
      () => this.#gitLog(),
      () => this.#listing(),
      () => this.#env(),
      () => this.#words(this.#int(50, 600)),
      () => `${this.#python()}\n${this.#typescript()}`,
    ][kind]?.() as string;
    return this.#random() < 0.02 ? `${body}\n${this.#secret()}` : body;
  }

  #toolCall(): { name: string; args: string } {
    if (this.#random() < 0.6) {
      const commands = [
        `ls -la ${this.#pick(DIRS)}`,
        `cat ${this.#path('py')}`,
        `grep -rn "${this.#pick(PROSE)}" ${this.#pick(DIRS)} | head -20`,
        `python -m pytest tests/test_${this.#pick(NAMES)}.py -x -q`,
        'git log --oneline -10',
        `npm test -- ${this.#pick(NAMES)}`,
        `curl -s "https://api.github.com/repos/acme/${this.#pick(NAMES)}/pulls?state=open&page=${this.#int(1, 9)}"`,
      ];
      return { name: 'bash', args: JSON.stringify({ command: this.#pick(commands) }) };
    }
    const code = this.#random() < 0.5 ? this.#python() : this.#typescript();
    const cut = this.#int(0, code.length - 200);
    return {
      name: 'str_replace_editor',
      args: JSON.stringify({
        command: 'str_replace',
        path: `/workspace/${this.#path(this.#random() < 0.5 ? 'py' : 'ts')}`,
        old_str: code.slice(cut, cut + 160),
        new_str: `${code.slice(cut, cut + 160)}\n    # ${this.#words(8).replaceAll('\n', ' ')}`,
      }),
    };
  }

  /** One dataset line: a whole agent run. */
  line(): string {
    const messages: unknown[] = [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: `${this.#words(this.#int(20, 200))}\n\nRepository: acme/${this.#pick(NAMES)}`,
      },
    ];
    for (let step = 0; step < this.#int(3, 30); step++) {
      const call = this.#toolCall();
      const id = `call_${this.#id(24)}`;
      messages.push({
        role: 'assistant',
        content: this.#random() < 0.7 ? this.#words(this.#int(10, 120)) : null,
        tool_calls: [{ id, type: 'function', function: { name: call.name, arguments: call.args } }],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: this.#toolOutput() });
    }
    messages.push({ role: 'assistant', content: this.#words(this.#int(20, 200)) });
    return JSON.stringify({ messages });
  }
}

/** A JSONL dataset of about `targetBytes` (one agent run per line), the same for the same seed. */
export function generateRedactionDataset(targetBytes: number, seed = 1): string {
  const builder = new DatasetBuilder(seed);
  const lines: string[] = [];
  let bytes = 0;
  while (bytes < targetBytes) {
    const line = builder.line();
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}
