import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { BuiltinSecretKind } from '../kinds.js';
import { type RedactRule, type RuleScope, type RuleTrigger, WHOLE_TEXT } from '../rule.js';

/**
 * A vendor token: a literal prefix and a body. `secretGroup`: the masked part is capture group 1, which ends
 * the match (a webhook URL keeps its host). `kindOf` refines the kind from the token (`sk-ant-` vs `sk-`).
 */
interface VendorToken {
  readonly kind: BuiltinSecretKind;
  /**
   * What every match holds right after a character that is not a letter or digit (see `rule.ts`): the prefix,
   * or for patterns without one, the part after a separator (`.slack.com/`, the `:` of a Telegram token).
   */
  readonly trigger: RuleTrigger;
  readonly pattern: RegExp;
  readonly secretGroup?: boolean;
  readonly kindOf?: (token: string) => BuiltinSecretKind;
}

// Every pattern starts with a literal and a look-behind that forbids starting inside a run of token
// characters, and its body is one character class that the next token cannot continue: the engine never
// rescans a run from inside it, so each pattern is linear.
const B = '(?<![A-Za-z0-9_-])';

const TOKENS: readonly VendorToken[] = [
  {
    kind: 'openai-key',
    trigger: 'sk-',
    pattern: new RegExp(`${B}sk-[A-Za-z0-9_-]{20,}`, 'g'),
    kindOf: (token) =>
      token.startsWith('sk-ant-')
        ? 'anthropic-key'
        : token.startsWith('sk-or-')
          ? 'openrouter-key'
          : 'openai-key',
  },
  { kind: 'github-token', trigger: `gh[pousr]_`, pattern: new RegExp(`${B}gh[pousr]_[A-Za-z0-9]{36,}`, 'g') },
  {
    kind: 'github-pat',
    trigger: `github_pat_`,
    pattern: new RegExp(`${B}github_pat_[A-Za-z0-9_]{22,}`, 'g'),
  },
  {
    kind: 'gitlab-token',
    trigger: `gl(?:pat|dt|rt|ptt|soat|ffct|cbt|oas|imt|agent)-`,
    pattern: new RegExp(`${B}gl(?:pat|dt|rt|ptt|soat|ffct|cbt|oas|imt|agent)-[A-Za-z0-9_-]{20,}`, 'g'),
  },
  {
    kind: 'slack-token',
    trigger: `xox[abposre]-`,
    pattern: new RegExp(`${B}xox[abposre]-[A-Za-z0-9-]{10,}`, 'g'),
  },
  { kind: 'slack-token', trigger: `xapp-`, pattern: new RegExp(`${B}xapp-[0-9]-[A-Za-z0-9-]{10,}`, 'g') },
  {
    kind: 'slack-webhook',
    trigger: String.raw`slack\.com\/`,
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]{10,})/g,
    secretGroup: true,
  },
  {
    kind: 'stripe-key',
    trigger: `[sr]k_(?:live|test)_`,
    pattern: new RegExp(`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`, 'g'),
  },
  { kind: 'stripe-key', trigger: `whsec_`, pattern: new RegExp(`${B}whsec_[A-Za-z0-9+/=]{24,}`, 'g') },
  {
    kind: 'aws-access-key-id',
    trigger: 'A(?:KIA|SIA|BIA|CCA|3T)',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'google-api-key',
    trigger: `AIza`,
    pattern: new RegExp(`${B}AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`, 'g'),
  },
  { kind: 'google-oauth', trigger: `ya29\\.`, pattern: new RegExp(`${B}ya29\\.[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'google-oauth', trigger: `GOCSPX-`, pattern: new RegExp(`${B}GOCSPX-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'huggingface-token', trigger: `hf_`, pattern: new RegExp(`${B}hf_[A-Za-z0-9]{30,}`, 'g') },
  {
    kind: 'huggingface-token',
    trigger: `api_org_`,
    pattern: new RegExp(`${B}api_org_[A-Za-z0-9]{30,}`, 'g'),
  },
  { kind: 'npm-token', trigger: `npm_`, pattern: new RegExp(`${B}npm_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'pypi-token', trigger: `pypi-`, pattern: new RegExp(`${B}pypi-[A-Za-z0-9_-]{50,}`, 'g') },
  {
    kind: 'twilio-key',
    trigger: '[SA][KC][0-9a-f]{32}',
    pattern: /(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'sendgrid-key',
    trigger: `SG\\.`,
    pattern: new RegExp(`${B}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`, 'g'),
  },
  {
    kind: 'telegram-bot-token',
    trigger: { after: ':', pattern: '[A-Za-z0-9_-]{35}' },
    pattern: /(?<![0-9])[0-9]{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'discord-token',
    trigger: '[MNO][A-Za-z0-9_-]{23}',
    pattern:
      /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'discord-webhook',
    trigger: String.raw`com\/api\/webhooks\/`,
    pattern: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{5,30}\/([A-Za-z0-9_-]{20,})/g,
    secretGroup: true,
  },
  { kind: 'groq-key', trigger: `gsk_`, pattern: new RegExp(`${B}gsk_[A-Za-z0-9]{40,}`, 'g') },
  { kind: 'xai-key', trigger: `xai-`, pattern: new RegExp(`${B}xai-[A-Za-z0-9]{40,}`, 'g') },
  { kind: 'perplexity-key', trigger: `pplx-`, pattern: new RegExp(`${B}pplx-[A-Za-z0-9]{40,}`, 'g') },
  { kind: 'replicate-token', trigger: `r8_`, pattern: new RegExp(`${B}r8_[A-Za-z0-9]{30,}`, 'g') },
  {
    kind: 'digitalocean-token',
    trigger: `do[opr]_v1_`,
    pattern: new RegExp(`${B}do[opr]_v1_[a-f0-9]{64}`, 'g'),
  },
  {
    kind: 'shopify-token',
    trigger: `shp(?:at|ca|pa|ss)_`,
    pattern: new RegExp(`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, 'g'),
  },
  {
    kind: 'linear-key',
    trigger: `lin_(?:api|oauth)_`,
    pattern: new RegExp(`${B}lin_(?:api|oauth)_[A-Za-z0-9]{32,}`, 'g'),
  },
  { kind: 'notion-token', trigger: `ntn_`, pattern: new RegExp(`${B}ntn_[A-Za-z0-9]{40,}`, 'g') },
  {
    kind: 'notion-token',
    trigger: `secret_`,
    pattern: new RegExp(`${B}secret_[A-Za-z0-9]{43}(?![A-Za-z0-9_-])`, 'g'),
  },
  { kind: 'vault-token', trigger: `hv[sb]\\.`, pattern: new RegExp(`${B}hv[sb]\\.[A-Za-z0-9_-]{24,}`, 'g') },
  {
    kind: 'doppler-token',
    trigger: `dp\\.`,
    pattern: new RegExp(
      `${B}dp\\.(?:st|pt|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,20}\\.)?[A-Za-z0-9_-]{30,}`,
      'g',
    ),
  },
  {
    kind: 'sentry-token',
    trigger: `sntry[su]_`,
    pattern: new RegExp(`${B}sntry[su]_[A-Za-z0-9+/=_-]{30,}`, 'g'),
  },
  { kind: 'grafana-token', trigger: `glsa_`, pattern: new RegExp(`${B}glsa_[A-Za-z0-9_]{32,}`, 'g') },
  { kind: 'grafana-token', trigger: `glc_`, pattern: new RegExp(`${B}glc_[A-Za-z0-9+/=]{32,}`, 'g') },
  {
    kind: 'tavily-key',
    trigger: `tvly-`,
    pattern: new RegExp(`${B}tvly-(?:dev-|prod-)?[A-Za-z0-9]{20,}`, 'g'),
  },
  { kind: 'private-key', trigger: 'SECRET-KEY-1', pattern: /AGE-SECRET-KEY-1[0-9A-Z]{58}/g },
];

/**
 * A random token has a digit or an upper-case letter somewhere; a hyphenated English phrase that happens
 * to start with a prefix (`sk-learn-compatible-estimators`) has neither.
 */
function looksRandom(token: string): boolean {
  return /[0-9A-Z]/.test(token.slice(4));
}

function findVendorTokens(text: string, out: CandidateSink, scope: RuleScope = WHOLE_TEXT): void {
  for (let index = 0; index < TOKENS.length; index++) {
    const entry = TOKENS[index] as VendorToken;
    if (!scope.fired(index)) continue;
    const pattern = entry.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const whole = match[0];
      const secret = entry.secretGroup === true ? (match[1] ?? '') : whole;
      const start = match.index + whole.length - secret.length;
      if (!looksRandom(secret)) continue;
      const kind = entry.kindOf === undefined ? entry.kind : entry.kindOf(secret);
      pushCandidate(out, start, start + secret.length, kind, kind === 'private-key' ? 'marker' : 'ends');
    }
  }
}

/** Tokens that announce their vendor by a prefix: OpenAI, Anthropic, GitHub, Slack, Stripe, AWS and others. */
export const vendorTokenRule: RedactRule = {
  name: 'vendor-tokens',
  noisy: false,
  triggers: TOKENS.map((entry) => entry.trigger),
  find: findVendorTokens,
};
