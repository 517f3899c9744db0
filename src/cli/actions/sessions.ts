import { relative, resolve } from 'node:path';
import { CondenseError } from '../../errors/condense-error.js';
import { listSessions, type SessionListing } from '../../session/list-sessions.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { integer, renderColumns } from '../render/table.js';

/** The flags of the command. */
export interface SessionsFlags {
  readonly json?: boolean;
}

/** What `condense sessions` does once its arguments are parsed (loaded only when the command runs). */
export async function runSessions(
  context: CliContext,
  state: CommandState,
  dir: string,
  flags: SessionsFlags,
): Promise<void> {
  const root = resolve(context.cwd, dir);
  let skipped = 0;
  const listings = await listSessions(root, {
    onSkipped: (_path, problem) => {
      skipped++;
      context.stderr(`condense: skipped ${problem.describe()}\n`);
    },
  });
  if (listings.length === 0) {
    throw new CondenseError({
      code: skipped > 0 ? 'NOT_A_SESSION' : 'EMPTY_INPUT',
      message: `no session files in ${dir}${skipped > 0 ? ` (${skipped} .jsonl file(s) there are not session logs)` : ''}`,
      hint: 'pass a Claude Code project directory such as ~/.claude/projects/<project>, ~/.claude/projects itself, or a directory of condense logs',
      location: { file: root },
    });
  }
  if (flags.json === true) {
    context.stdout(`${JSON.stringify(listings, null, 2)}\n`);
  } else {
    context.stdout(`${renderListings(listings, root, context.columns)}\n`);
  }
  state.exitCode = EXIT.ok;
}

function renderListings(listings: readonly SessionListing[], root: string, columns: number): string {
  const header = ['session', 'title', 'messages', 'tokens', 'compactions', 'dead', 'last activity', 'agent'];
  const rows = listings.map((listing) => [
    (listing.sessionId ?? relative(root, listing.path)).slice(0, 36),
    '',
    integer(listing.messages),
    integer(listing.tokens),
    integer(listing.compactions),
    integer(listing.deadBranches),
    (listing.lastActivity ?? '-').replace('T', ' ').slice(0, 19),
    listing.format,
  ]);
  // The title takes whatever width the other columns leave.
  const fixed = [header, ...rows].reduce(
    (widths, row) => row.map((cell, index) => Math.max(widths[index] ?? 0, cell.length)),
    [] as number[],
  );
  const room = Math.max(
    12,
    columns - 2 - fixed.reduce((sum, width, index) => (index === 1 ? sum : sum + width + 2), 0),
  );
  listings.forEach((listing, index) => {
    const row = rows[index] as string[];
    row[1] = clip(listing.title ?? '', room);
  });
  return renderColumns([header, ...rows]);
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}
