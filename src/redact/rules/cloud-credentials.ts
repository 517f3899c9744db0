import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { readValue } from '../values.js';
import { forEachMatch } from '../windows.js';

const AWS_SECRET =
  /(?<![A-Za-z0-9_])(?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;

/**
 * AWS secret access keys: 40 base64 characters with nothing to recognise them by except the name in front
 * (`aws_secret_access_key = …` in `~/.aws/credentials`, `AWS_SECRET_ACCESS_KEY=`, `"SecretAccessKey": …`).
 * The name makes it a high-confidence match, so it also runs on source code.
 */
function findAwsSecrets(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(AWS_SECRET, text, scope?.windows, (match, _start, end) => {
    const secret = match[1] ?? '';
    pushCandidate(out, end - secret.length, end, 'aws-secret-key', 'ends');
    return undefined;
  });
}

/** AWS secret access keys named as such. */
export const awsSecretKeyRule: RedactRule = {
  name: 'aws-secret-key',
  noisy: false,
  windowed: true,
  find: findAwsSecrets,
};

const SERVICE_ACCOUNT_FIELD = /(?<!\\)\\*"private_key(_id)?\\*"[ \t]*:[ \t]*/g;

/**
 * A Google Cloud service-account key file (`"type": "service_account"`): its `private_key` (a PEM block with
 * escaped newlines) and `private_key_id`, whatever the name-based passes decide.
 */
function findServiceAccounts(text: string, out: CandidateSink): void {
  if (!text.includes('service_account')) return;
  SERVICE_ACCOUNT_FIELD.lastIndex = 0;
  for (
    let match = SERVICE_ACCOUNT_FIELD.exec(text);
    match !== null;
    match = SERVICE_ACCOUNT_FIELD.exec(text)
  ) {
    const value = readValue(text, SERVICE_ACCOUNT_FIELD.lastIndex, false);
    if (value === undefined) continue;
    const isId = match[1] !== undefined;
    pushCandidate(
      out,
      value.start,
      value.end,
      isId ? 'gcp-service-account' : 'private-key',
      isId ? 'ends' : 'marker',
    );
    SERVICE_ACCOUNT_FIELD.lastIndex = value.next;
  }
}

/** Google Cloud service-account key files. */
export const gcpServiceAccountRule: RedactRule = {
  name: 'gcp-service-account',
  noisy: false,
  triggers: ['private_key'],
  find: findServiceAccounts,
};
