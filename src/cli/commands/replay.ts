import { resolve } from 'node:path';
import { plainMessageJson, renderReplay } from '../../session/render-replay.js';
import { EXIT } from '../context.js';
import { jsonOption } from '../options.js';
import type { CommandRegistrar } from '../program.js';
import { loadSessionInput } from '../session-input.js';

interface ReplayFlags {
  readonly leaf?: string;
  readonly json?: boolean;
  readonly context?: boolean;
  readonly full?: boolean;
  readonly prefilter: boolean;
}

/** `condense replay <session.jsonl>`: the active conversation of a session log, readable or as JSON. */
export const registerReplay: CommandRegistrar = (program, context, state) => {
  program
    .command('replay')
    .description(
      'show the active conversation of a session log (Claude Code, Codex CLI rollout or condense): roles, tool calls and results, compaction boundaries, dead branches',
    )
    .argument('<session>', 'session file (.jsonl)')
    .option(
      '--leaf <uuid>',
      'follow the branch ending at this record (uuid or unique prefix) instead of the active one',
    )
    .option('--context', 'show what the model sees after the last compaction instead of the whole history')
    .option('--full', 'do not shorten tool results and long texts')
    .option(
      '--no-prefilter',
      'parse every line instead of reading links from bytes first (same result, slower)',
    )
    .addOption(
      jsonOption(
        'print the session as JSON: messages, boundaries, queued prompts, dead branches, subagents, issues',
      ),
    )
    .action(async (file: string, flags: ReplayFlags) => {
      const session = await loadSessionInput(resolve(context.cwd, file), {
        ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
        view: flags.context === true ? 'context' : 'full',
        prefilter: flags.prefilter,
      });
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
        context.stdout(`${JSON.stringify(payload, null, 2)}\n`);
      } else {
        context.stdout(renderReplay(session, { full: flags.full === true }));
      }
      state.exitCode = EXIT.ok;
    });
};
