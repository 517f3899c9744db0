import {
  ARTIFACT_KINDS,
  type ArtifactKind,
  artifactCoverage,
  extractArtifacts,
  searchableText,
} from '../../../src/inspect/artifacts.js';
import type { Message } from '../../../src/model/message.js';
import { messageText } from '../../../src/model/message-helpers.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { assistant, call, long, result, system, tool, user } from '../../transforms/support.js';

/** Artifacts of messages the pass changed (not kept as the same object) that no longer occur in the output. */
export function lostArtifacts(input: Transcript, output: Transcript): Record<ArtifactKind, string[]> {
  const kept = new Set(output.messages.filter((message) => input.messages.includes(message)));
  const changed = input.messages.filter((message) => !kept.has(message));
  const coverage = artifactCoverage(extractArtifacts(changed), searchableText(output.messages));
  const out = {} as Record<ArtifactKind, string[]>;
  for (const kind of ARTIFACT_KINDS) out[kind] = [...coverage.byKind[kind].missing];
  return out;
}

/** All text of a transcript's messages (text parts only), for assertions on markers. */
export function allText(messages: readonly Message[]): string {
  return messages.map(messageText).join('\n');
}

/** One user request followed by `steps` agent steps (a read, a grep, a test run in turn), then a reply. */
export function agentLoop(steps: number, outputSize = 1_500): Message[] {
  const messages: Message[] = [system('You are a coding agent.'), user('Fix the failing build in /repo.')];
  for (let step = 0; step < steps; step++) {
    const id = `c${step}`;
    const kind = step % 3;
    const [name, args] =
      kind === 0
        ? ['read_file', { path: `/repo/src/module${step}.ts` }]
        : kind === 1
          ? ['grep', { pattern: `needle${step}`, path: '/repo/src' }]
          : ['bash', { command: `npm test -- --shard ${step}` }];
    messages.push(assistant(`Step ${step}: checking.`, call(id, name, args)));
    messages.push(tool(result(id, long(`output of step ${step} in /repo/src/part${step}.ts`, outputSize))));
  }
  messages.push(assistant('The build is fixed.'));
  return messages;
}
