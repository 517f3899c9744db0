import {
  ARTIFACT_KINDS,
  type ArtifactKind,
  artifactCoverage,
  extractArtifacts,
  searchableText,
} from '../../src/inspect/artifacts.js';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { checkpointOf, hasUserContentBesidesCheckpoint } from '../../src/transforms/checkpoint-text.js';

/** Quality figures of one compaction. */
export interface Measurement {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly reduction: number;
  readonly atRisk: Readonly<Record<ArtifactKind, number>>;
  readonly retained: Readonly<Record<ArtifactKind, number>>;
  readonly missing: readonly string[];
  /** No violation the input did not already have, for OpenAI and for Anthropic rules. */
  readonly valid: boolean;
  readonly latestRequestKept: boolean;
  readonly systemKept: boolean | undefined;
}

/**
 * Measures one compaction the way the project's quality bar defines it: an artifact (path, URL, command, error
 * line, tool name) is at risk when no output message that is an untouched input message still contains it,
 * and retained when it occurs anywhere in the output.
 */
export function measure(input: Transcript, output: Transcript, counter: TokenCounter): Measurement {
  const kept = new Set(output.messages.filter((message) => input.messages.includes(message)));
  const keptText = searchableText([...kept]);
  const changed = input.messages.filter((message) => !kept.has(message));
  const extracted = extractArtifacts(changed);
  const outputText = searchableText(output.messages);
  const atRisk = {} as Record<ArtifactKind, number>;
  const retained = {} as Record<ArtifactKind, number>;
  const missing: string[] = [];
  for (const kind of ARTIFACT_KINDS) {
    const risky = [...extracted[kind]].filter((artifact) => !keptText.includes(artifact));
    const coverage = artifactCoverage({ ...emptyArtifacts(), [kind]: new Set(risky) }, outputText);
    atRisk[kind] = risky.length;
    retained[kind] = coverage.present;
    missing.push(...coverage.byKind[kind].missing.map((artifact) => `${kind}: ${artifact}`));
  }
  const tokensBefore = counter.countTranscript(input);
  const tokensAfter = counter.countTranscript(output);
  return {
    tokensBefore,
    tokensAfter,
    reduction: tokensBefore === 0 ? 0 : 1 - tokensAfter / tokensBefore,
    atRisk,
    retained,
    missing,
    valid: noNewViolations(input, output, 'openai') && noNewViolations(input, output, 'anthropic'),
    latestRequestKept: latestRequestKept(input, output),
    systemKept: systemKept(input, output),
  };
}

function emptyArtifacts() {
  return {
    paths: new Set<string>(),
    urls: new Set<string>(),
    commands: new Set<string>(),
    errorLines: new Set<string>(),
    toolNames: new Set<string>(),
  };
}

function noNewViolations(input: Transcript, output: Transcript, provider: 'openai' | 'anthropic'): boolean {
  const before = new Set(verifyTranscript(input, { provider }).map((violation) => violation.code));
  return verifyTranscript(output, { provider }).every((violation) => before.has(violation.code));
}

function requestText(message: Message): string | undefined {
  if (message.role !== 'user' || !hasUserContentBesidesCheckpoint(message)) return undefined;
  const checkpoint = checkpointOf(message);
  return messageText({
    ...message,
    parts: message.parts.filter((_, index) => index !== checkpoint?.partIndex),
  });
}

/** The latest request of the input is, verbatim, the latest request of the output (a real user message). */
function latestRequestKept(input: Transcript, output: Transcript): boolean {
  const latest = (messages: readonly Message[]) => {
    for (let index = messages.length - 1; index >= 0; index--) {
      const text = requestText(messages[index] as Message);
      if (text !== undefined) return text;
    }
    return undefined;
  };
  return latest(input.messages) === latest(output.messages);
}

function systemKept(input: Transcript, output: Transcript): boolean | undefined {
  const system = input.messages.find((message) => message.role === 'system');
  if (system === undefined) return undefined;
  return output.messages.some(
    (message) => message === system || JSON.stringify(message.parts) === JSON.stringify(system.parts),
  );
}
