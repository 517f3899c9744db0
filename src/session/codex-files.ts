import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** How deep below the given directory rollouts are looked for (`~/.codex` → `sessions/YYYY/MM/DD`). */
const MAX_DEPTH = 5;

const ROLLOUT_FILE = /^rollout-.+\.jsonl?$/;

/**
 * The Codex rollout files (`rollout-*.jsonl`, and the first CLI's `rollout-*.json`) under a directory, searched
 * a few levels deep (Codex files its sessions by date: `sessions/YYYY/MM/DD/`). Hidden directories other than
 * `.codex` and `node_modules` are not entered; unreadable directories are skipped.
 */
export async function rolloutFilesUnder(dir: string, depth = MAX_DEPTH): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile() && ROLLOUT_FILE.test(entry.name)) out.push(path);
    else if (entry.isDirectory() && depth > 0 && enterable(entry.name)) {
      out.push(...(await rolloutFilesUnder(path, depth - 1)));
    }
  }
  return out.sort();
}

function enterable(name: string): boolean {
  if (name === 'node_modules') return false;
  return !name.startsWith('.') || name === '.codex';
}
