import { resolve } from 'node:path';
import { plainMessageJson, replayChunks } from '../../session/render-replay.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { writeOutputChunks } from '../output.js';
import { loadSessionInput } from '../session-input.js';

/** The flags of the command. */
export interface ReplayFlags {
  readonly leaf?: string;
  readonly json?: boolean;
  readonly context?: boolean;
  readonly full?: boolean;
  readonly prefilter: boolean;
  readonly out?: string;
}

/** What `condense replay` does once its arguments are parsed (loaded only when the command runs). */
export async function runReplay(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: ReplayFlags,
): Promise<void> {
  const session = await loadSessionInput(resolve(context.cwd, file), {
    ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
    view: flags.context === true ? 'context' : 'full',
    prefilter: flags.prefilter,
  });
  const output = { out: flags.out, inputs: [file] };
  if (flags.json === true) {
    const payload = {
      session: {
        path: session.path,
        format: session.format,
        sessionId: session.sessionId,
        title: session.title ?? null,
        view: session.view,
        leaf: session.leaf ?? null,
        lastActivity: session.lastActivity ?? null,
        model: session.model ?? null,
        stats: session.stats,
      },
      messages: session.transcript.messages.map(plainMessageJson),
      boundaries: session.boundaries,
      queuedPrompts: session.queuedPrompts,
      deadBranches: session.deadBranches,
      subagents: session.subagents.map((agent) => ({
        agentId: agent.agentId,
        path: agent.path,
        layout: agent.layout,
        kind: agent.kind,
        callId: agent.callId ?? null,
        description: agent.description ?? null,
        messages: agent.session.transcript.messages.length,
      })),
      titles: session.titles,
      issues: session.issues,
    };
    await writeOutputChunks(context, [`${JSON.stringify(payload, null, 2)}\n`], output);
  } else {
    await writeOutputChunks(context, replayChunks(session, { full: flags.full === true }), output);
  }
  state.exitCode = EXIT.ok;
}
