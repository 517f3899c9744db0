import { open, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  bufferView,
  headerEnd,
  isObjectSpan,
  keyPattern,
  probeKey,
  readScalar,
  scanLines,
} from '../io/jsonl-scan.js';
import { isJsonObject } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';

/** Where a subagent transcript was found. `nested`: `<session>/subagents/` (2.1.x); `legacy`: `agent-*.jsonl` next to sessions. */
export type SubagentLayout = 'nested' | 'legacy';

/** A subagent transcript file of a session. */
export interface SubagentFile {
  readonly agentId: string;
  readonly path: string;
  readonly layout: SubagentLayout;
  /** `compaction` for Claude Code's compaction summarizer (`agent-acompact-*`), else `task`. */
  readonly kind: 'task' | 'compaction';
  /** From the `.meta.json` sidecar when present. */
  readonly agentType?: string;
  readonly description?: string;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
const SESSION_ID = keyPattern('sessionId');
const HEAD_BYTES = 64 * 1024;

/**
 * The subagent files of the session at `sessionPath`: every `agent-*.jsonl` in `<dir>/<session>/subagents/`, and
 * every `agent-*.jsonl` next to the session whose first record carries the session's id. Missing directories
 * simply give none.
 */
export async function findSubagentFiles(
  sessionPath: string,
  sessionId: string | undefined,
): Promise<SubagentFile[]> {
  const dir = dirname(sessionPath);
  const stem = basename(sessionPath, '.jsonl');
  const nestedDir = join(dir, stem, 'subagents');
  const out: SubagentFile[] = [];
  for (const name of await listNames(nestedDir)) {
    const match = AGENT_FILE.exec(name);
    if (match === null) continue;
    const agentId = match[1] as string;
    const meta = await readSidecar(join(nestedDir, `agent-${agentId}.meta.json`));
    out.push({ agentId, path: join(nestedDir, name), layout: 'nested', kind: kindOf(agentId), ...meta });
  }
  const wanted = sessionId ?? stem;
  for (const name of await listNames(dir)) {
    const match = AGENT_FILE.exec(name);
    if (match === null) continue;
    const path = join(dir, name);
    if ((await firstSessionId(path)) !== wanted) continue;
    const agentId = match[1] as string;
    out.push({ agentId, path, layout: 'legacy', kind: kindOf(agentId) });
  }
  return out;
}

function kindOf(agentId: string): 'task' | 'compaction' {
  return agentId.startsWith('acompact') ? 'compaction' : 'task';
}

async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function readSidecar(path: string): Promise<{ agentType?: string; description?: string }> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (!isJsonObject(value)) return {};
    const { agentType, description } = value;
    return {
      ...(typeof agentType === 'string' ? { agentType } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    };
  } catch {
    return {};
  }
}

/** The `sessionId` of a file's first record, read from its first 64 KiB without parsing the file. */
async function firstSessionId(path: string): Promise<string | undefined> {
  let head: Uint8Array;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const buf = bufferView(head);
  const lines = scanLines(buf);
  for (let index = 0; index < lines.count; index++) {
    const start = lines.starts[index] as number;
    const end = lines.ends[index] as number;
    if (!isObjectSpan(buf, start, end)) continue;
    const at = probeKey(buf, start, end, headerEnd(buf, start, end), SESSION_ID, true);
    if (typeof at !== 'number' || at === -1) continue;
    const value = readScalar(buf, at, end);
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Which tool call started each subagent: Claude Code's Task/Agent results carry `toolUseResult.agentId`, kept in
 * the claude-code codec's record envelopes of the tool messages.
 */
export function taskCallIds(transcript: Transcript): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of transcript.messages) {
    if (message.role !== 'tool') continue;
    const records = message.meta?.codec?.['claude-code']?.['records'];
    if (!Array.isArray(records)) continue;
    const callId = message.parts.find((part) => part.type === 'tool-result');
    for (const entry of records) {
      const record = isJsonObject(entry) ? entry['record'] : undefined;
      const result = isJsonObject(record) ? record['toolUseResult'] : undefined;
      const agentId = isJsonObject(result) ? result['agentId'] : undefined;
      if (typeof agentId === 'string' && callId?.type === 'tool-result') out.set(agentId, callId.callId);
    }
  }
  return out;
}
