import type { RedactRule } from '../rule.js';
import { assignmentRule, credentialFileRule } from './assignments.js';
import { awsSecretKeyRule, gcpServiceAccountRule } from './cloud-credentials.js';
import { basicAuthRule, configSetRule, htpasswdRule } from './commands.js';
import { fieldRule } from './fields.js';
import { cliPasswordRule, secretFlagRule } from './flags.js';
import { apiKeyHeaderRule, authorizationRule, cookieRule } from './headers.js';
import { inlineAssignmentRule } from './inline-assignments.js';
import { jwtRule } from './jwt.js';
import { privateKeyRule } from './private-keys.js';
import { connectionStringRule, formFirstPairRule, paramRule, urlCredentialsRule } from './urls.js';
import { vendorTokenRule } from './vendor-tokens.js';

/** Every built-in rule. Order does not matter: candidates of all rules are merged before masking. */
export const BUILTIN_RULES: readonly RedactRule[] = [
  vendorTokenRule,
  privateKeyRule,
  gcpServiceAccountRule,
  awsSecretKeyRule,
  jwtRule,
  authorizationRule,
  apiKeyHeaderRule,
  cookieRule,
  urlCredentialsRule,
  connectionStringRule,
  paramRule,
  formFirstPairRule,
  credentialFileRule,
  cliPasswordRule,
  assignmentRule,
  fieldRule,
  secretFlagRule,
  inlineAssignmentRule,
  configSetRule,
  htpasswdRule,
  basicAuthRule,
];
