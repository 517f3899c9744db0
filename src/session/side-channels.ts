import { isJsonObject, type JsonObject, stringOf } from '../model/json.js';
import { type QueueOperation, queueOperationOf } from './queued-prompts.js';
import { lookup, type SessionIndex } from './session-index.js';
import type { SessionTitle, TitleSource } from './session-types.js';
import { isMessageLine, type LineSkeleton } from './skeleton.js';

/** Title records, last prompt and session id read from the side records of a file. */
export interface SideChannels {
  readonly titles: readonly SessionTitle[];
  readonly lastPrompt: string | undefined;
  readonly sessionId: string | undefined;
  readonly headerModel: string | undefined;
  readonly queue: readonly QueueOperation[];
}

/**
 * Reads the side records (parsed by both loading modes): titles, `last-prompt`, queue operations, the condense
 * header.
 */
export function readSideChannels(index: SessionIndex): SideChannels {
  const titles: SessionTitle[] = [];
  let lastPrompt: string | undefined;
  let sessionId: string | undefined;
  let headerModel: string | undefined;
  const queue: QueueOperation[] = [];
  for (const skeleton of index.skeletons) {
    if (skeleton.type === undefined || !index.dialect.sideTypes.has(skeleton.type)) continue;
    const value = skeleton.value;
    if (!isJsonObject(value)) continue;
    if (skeleton.type === 'queue-operation') queue.push(queueOperationOf(value, skeleton.line));
    const title = titleOf(skeleton.type, value);
    if (title !== undefined) {
      const leafUuid = stringOf(value['leafUuid']);
      titles.push({ title: title.text, leafUuid, line: skeleton.line, source: title.source });
    }
    if (skeleton.type === 'last-prompt') lastPrompt = stringOf(value['lastPrompt']) ?? lastPrompt;
    if (skeleton.type === 'session') {
      sessionId = stringOf(value['sessionId']) ?? sessionId;
      const metadata = isJsonObject(value['metadata']) ? value['metadata'] : undefined;
      headerModel = stringOf(metadata?.['model']) ?? headerModel;
    }
  }
  return { titles, lastPrompt, sessionId, headerModel, queue };
}

function titleOf(type: string, value: JsonObject): { text: string; source: TitleSource } | undefined {
  const pick = (key: string, source: TitleSource) => {
    const text = stringOf(value[key]);
    return text === undefined ? undefined : { text, source };
  };
  switch (type) {
    case 'summary':
      return pick('summary', 'summary');
    case 'custom-title':
      return pick('customTitle', 'custom-title') ?? pick('title', 'custom-title');
    case 'ai-title':
      return pick('aiTitle', 'ai-title') ?? pick('title', 'ai-title');
    case 'title':
      return pick('title', 'condense');
    default:
      return undefined;
  }
}

/**
 * The session's own title: a title the user set (Claude Code `custom-title`, condense `title`), else a `summary`
 * whose leaf is in this file (preferring the chain's newest), else the project-wide index (`summary` records of
 * other files name this session's leaves), else an AI title.
 */
export function resolveTitle(
  index: SessionIndex,
  titles: readonly SessionTitle[],
  chain: readonly LineSkeleton[],
  external: ReadonlyMap<string, string> | undefined,
): string | undefined {
  const latest = (source: TitleSource) => titles.filter((title) => title.source === source).at(-1)?.title;
  const own = latest('custom-title') ?? latest('condense');
  if (own !== undefined) return own;
  const inFile = new Map<string, string>();
  for (const title of titles) {
    if (title.source === 'summary' && title.leafUuid !== undefined && lookup(index, title.leafUuid))
      inFile.set(title.leafUuid, title.title);
  }
  const indexes = [inFile, ...(external === undefined ? [] : [external])];
  for (const titlesByLeaf of indexes) {
    if (titlesByLeaf.size === 0) continue;
    for (let at = chain.length - 1; at >= 0; at--) {
      const found = titlesByLeaf.get(chain[at]?.uuid ?? '');
      if (found !== undefined) return found;
    }
    for (const uuid of index.byUuid.keys()) {
      const found = titlesByLeaf.get(uuid);
      if (found !== undefined) return found;
    }
  }
  return latest('ai-title');
}

/** Session id, model and newest timestamp of the chain's message records. */
export function chainFacts(
  index: SessionIndex,
  chain: readonly LineSkeleton[],
): { sessionId: string | undefined; model: string | undefined; lastActivity: string | undefined } {
  let sessionId: string | undefined;
  let model: string | undefined;
  let lastActivity: string | undefined;
  for (const skeleton of chain) {
    if (!isMessageLine(skeleton, index.dialect) || !isJsonObject(skeleton.value)) continue;
    const value = skeleton.value;
    sessionId ??= stringOf(value['sessionId']);
    const timestamp = stringOf(value['timestamp']);
    if (timestamp !== undefined && (lastActivity === undefined || timestamp > lastActivity))
      lastActivity = timestamp;
    const message = isJsonObject(value['message']) ? value['message'] : undefined;
    const name = stringOf(message?.['model']);
    if (value['type'] === 'assistant' && name !== undefined && name !== '<synthetic>') model = name;
  }
  return { sessionId, model, lastActivity };
}
