/**
 * Inputs built to make a backtracking regex go quadratic or worse: the beginnings of every rule's syntax,
 * repeated without the terminator the rule waits for, glued to long runs of the characters the rule's
 * classes accept. Shared by the linear-time tests and the redaction benchmark.
 */
const SEEDS: readonly string[] = [
  'a',
  'A',
  '0',
  ' ',
  '\t',
  '\n',
  '=',
  ':',
  '"',
  "'",
  '\\',
  '\\"',
  '-',
  '_',
  '.',
  '/',
  '@',
  '&',
  '?',
  '#',
  ';',
  '%',
  '{',
  '(',
  '«',
  '…',
  'sk-',
  'sk-a',
  'ghp_',
  'github_pat_',
  'glpat-',
  'xoxb-',
  'AKIA',
  'AIza',
  'eyJ',
  'eyJaaaaaaaaaa.',
  'eyJaaaaaaaaaa.aaaaaaaaa.',
  'SG.',
  'dp.st.',
  '-----BEGIN PRIVATE KEY-----',
  '-----BEGIN ',
  '-----END ',
  'Authorization: ',
  'authorization: bearer ',
  'Authorization: Digest ',
  'Cookie: ',
  'a=b;',
  'x-api-key: ',
  'x-a-',
  'postgres://',
  'a://',
  'a://b',
  'a://b:',
  'a://b@',
  '?token=',
  '&token=',
  'token=a&',
  'password=',
  'PASSWORD=',
  'API_TOKEN=',
  'A_TOKEN',
  'export A_TOKEN=',
  '"password": ',
  '"password": "',
  '"a":',
  "'a': ",
  'password: |\n',
  '  password: ',
  '- name: A_TOKEN\n',
  'name: A_TOKEN value: ',
  '--password ',
  '--',
  '-u a:',
  'mysql ',
  'mysql -p',
  'sshpass -p',
  'login a password ',
  ':_authToken=',
  '123456789:',
  'Maaaaaaaaaaaaaaaaaaaaaaaa.',
  ';Password=a',
  'AccountKey=',
  'aws_secret_access_key=',
  '"private_key": "',
  'service_account',
  '\\"a\\": \\"',
  'hooks.slack.com/services/',
  'discord.com/api/webhooks/1234567/',
  'ENV A_TOKEN ',
  'set -x A_TOKEN ',
  'password=a ',
  'token: ',
];

/** Every adversarial input of about `size` characters. */
export function adversarialInputs(size: number): { readonly name: string; readonly text: string }[] {
  const out: { name: string; text: string }[] = [];
  const fill = (unit: string): string =>
    unit.repeat(Math.max(1, Math.ceil(size / unit.length))).slice(0, size);
  for (const seed of SEEDS) {
    out.push({ name: `repeat ${JSON.stringify(seed)}`, text: fill(seed) });
    out.push({ name: `${JSON.stringify(seed)} + run`, text: seed + fill('a0A_-') });
    out.push({ name: `repeat ${JSON.stringify(`${seed}a`)}`, text: fill(`${seed}a`) });
    out.push({
      name: `repeat ${JSON.stringify(`${seed}aaaaaaaaaaaaaaaaaaaa`)}`,
      text: fill(`${seed}aaaaaaaaaaaaaaaaaaaa`),
    });
    out.push({ name: `repeat ${JSON.stringify(`${seed} `)}`, text: fill(`${seed} `) });
  }
  return out;
}

/** The seeds, for generators that mix them at random. */
export const ADVERSARIAL_SEEDS = SEEDS;
