import { bufferView, scanLines } from '../io/jsonl-scan.js';
import type { Transcript } from '../model/transcript.js';
import { boundaryInfo, type SegmentEnds } from './boundary.js';
import { isCodexRollout, loadCodexSession } from './codex-session.js';
import { findDeadBranches } from './dead-branches.js';
import { decodeClaudeCodeChain, decodeCondenseChain, parallelCandidates } from './decode-chain.js';
import { detectDialect } from './dialect.js';
import { queuedPrompts } from './queued-prompts.js';
import { holdsToolResult } from './recover-parallel.js';
import {
  onlyReferencedAsParent,
  parseAndVerify,
  type ScannedSession,
  scanByParsing,
  scanFromBytes,
} from './scan-skeletons.js';
import { selectLeaf } from './select-leaf.js';
import { indexSkeletons, lookup, type SessionIndex } from './session-index.js';
import { cutIssues, lineIssues } from './session-issues.js';
import type {
  LoadedSession,
  LoadSessionOptions,
  SessionBoundary,
  SessionIssue,
  SessionStats,
} from './session-types.js';
import { chainFacts, readSideChannels, resolveTitle } from './side-channels.js';
import { isRoot, type LineSkeleton } from './skeleton.js';
import { type ChainCut, type ChainWalk, walkContext, walkFull } from './walk-chain.js';

const NO_WALK: ChainWalk = { path: [], cuts: [], links: new Map() };

/**
 * Loads a session log (Claude Code project file or condense's own log; Codex rollouts go to `loadCodexSession`) from its bytes: chooses the active leaf,
 * walks its branch back to the root across compaction boundaries, re-attaches parallel tool results, and returns
 * the conversation as a transcript with the side channels (titles, boundaries, dead branches, issues).
 *
 * With the pre-filter (default) every line's links are read from its bytes and only the chain's lines (plus
 * roots, side records and possible parallel results) are parsed; each parsed line is checked against its bytes,
 * and on any disagreement the file is loaded again parsing every line, so the result never depends on the
 * pre-filter. Never throws on damaged content (empty files, truncated lines, missing parents, cycles, duplicate
 * uuids are reported in `issues`); throws `INVALID_OPTIONS` only for a `leaf` option naming no record.
 */
export function loadSession(bytes: Uint8Array, options: LoadSessionOptions = {}): LoadedSession {
  if (isCodexRollout(bytes)) return loadCodexSession(bytes, options);
  const buf = bufferView(bytes);
  const lines = scanLines(buf);
  const dialect = detectDialect(buf, lines);
  if (options.prefilter === false) return assemble(scanByParsing(buf, lines, dialect), options, 'off');
  const prefiltered = assemble(scanFromBytes(buf, lines, dialect), options, 'used');
  if (prefiltered !== undefined) return prefiltered;
  const loaded = assemble(scanByParsing(buf, lines, dialect), options, 'fallback');
  const notice: SessionIssue = {
    code: 'prefilter-fallback',
    severity: 'info',
    message: 'some lines did not say at byte level what their parsed content says; every line was parsed',
  };
  return { ...loaded, issues: [...loaded.issues, notice] };
}

/**
 * The session of a file the pre-filter scanned some other way (`scanFile` reads it from disk), or `undefined`
 * when its bytes and its parsed lines disagree: the caller then loads it with {@link loadSession}.
 */
export function loadScannedSession(
  scanned: ScannedSession,
  options: LoadSessionOptions,
): LoadedSession | undefined {
  return assemble(scanned, options, 'used');
}

function assemble(
  scanned: ScannedSession,
  options: LoadSessionOptions,
  mode: 'used',
): LoadedSession | undefined;
function assemble(
  scanned: ScannedSession,
  options: LoadSessionOptions,
  mode: 'off' | 'fallback',
): LoadedSession;
function assemble(
  scanned: ScannedSession,
  options: LoadSessionOptions,
  mode: SessionStats['prefilter'],
): LoadedSession | undefined {
  const fileName = options.fileName ?? '<session>';
  const view = options.view ?? 'full';
  const index = indexSkeletons(scanned.skeletons, scanned.dialect);
  const leaf = selectLeaf(index, { leaf: options.leaf, fileName });
  const full = leaf === undefined ? NO_WALK : walkFull(index, leaf.skeleton);
  const walk = leaf === undefined || view === 'full' ? full : walkContext(index, leaf.skeleton);
  let agreed = true;
  const candidates = parallelCandidates(index, walk.path, (at) => {
    if (mode === 'used' && !parseAndVerify(scanned, [at])) agreed = false;
    return holdsToolResult((index.skeletons[at] as LineSkeleton).value);
  });
  if (
    mode === 'used' &&
    !(agreed && trustBytes(scanned, [...walk.path, ...candidates], [...full.cuts, ...walk.cuts]))
  )
    return undefined;
  const decoded =
    scanned.dialect.format === 'claude-code'
      ? decodeClaudeCodeChain(index, walk.path, candidates)
      : decodeCondenseChain(index, walk.path);
  const live = new Set([...full.path, ...decoded.attached]);
  const chain = walk.path.map((at) => index.skeletons[at] as LineSkeleton);
  const side = readSideChannels(index);
  const facts = chainFacts(index, chain);
  const issues: SessionIssue[] = [...lineIssues(index), ...cutIssues(walk.cuts), ...decoded.issues];
  if (scanned.lines.count === 0)
    issues.push({ code: 'empty-session', severity: 'info', message: `${fileName} holds no records` });
  else if (leaf === undefined)
    issues.push({ code: 'no-messages', severity: 'info', message: `${fileName} holds no conversation` });
  let deadLines = 0;
  let deadBytes = 0;
  for (const skeleton of index.skeletons) {
    if (skeleton.uuid === undefined || live.has(skeleton.index)) continue;
    deadLines++;
    deadBytes += skeleton.end - skeleton.start;
  }
  return {
    format: scanned.dialect.format,
    sessionId: side.sessionId ?? facts.sessionId,
    view,
    transcript: decoded.transcript,
    leaf:
      leaf === undefined
        ? undefined
        : { uuid: leaf.skeleton.uuid as string, line: leaf.skeleton.line, reason: leaf.reason },
    chain: chain.map((skeleton) => ({
      uuid: skeleton.uuid as string,
      line: skeleton.line,
      type: skeleton.type,
    })),
    boundaries: boundariesOf(index, walk, decoded.transcript),
    deadBranches: findDeadBranches(index, live),
    title: resolveTitle(index, side.titles, chain, options.titles),
    titles: side.titles,
    lastPrompt: side.lastPrompt,
    queuedPrompts: queuedPrompts(side.queue, decoded.transcript, (message) =>
      message.id === undefined ? undefined : lookup(index, message.id)?.line,
    ),
    lastActivity: facts.lastActivity,
    model: facts.model ?? side.headerModel,
    issues,
    stats: {
      bytes: scanned.source.length,
      lines: scanned.lines.count,
      parsedLines: scanned.parsedLines,
      parsedBytes: scanned.parsedBytes,
      liveLines: walk.path.length + decoded.attached.size,
      deadLines,
      deadBytes,
      prefilter: mode,
    },
    recordUuids: new Set(index.byUuid.keys()),
  };
}

/**
 * Parses the lines the result is built from and checks them against their bytes; and where the walk found a link
 * missing, checks that the uuid really names no record (a misread line would hide it). False: parse everything.
 */
function trustBytes(scanned: ScannedSession, lines: readonly number[], cuts: readonly ChainCut[]): boolean {
  if (!parseAndVerify(scanned, lines)) return false;
  return cuts.every(
    (cut) =>
      (cut.kind !== 'missing-parent' && cut.kind !== 'boundary-link-missing') ||
      cut.target === undefined ||
      onlyReferencedAsParent(scanned, cut.target),
  );
}

function boundariesOf(index: SessionIndex, walk: ChainWalk, transcript: Transcript): SessionBoundary[] {
  const messageAt = new Map<string, number>();
  transcript.messages.forEach((message, at) => {
    if (message.id !== undefined && !messageAt.has(message.id)) messageAt.set(message.id, at);
  });
  const out: SessionBoundary[] = [];
  walk.path.forEach((at, position) => {
    const skeleton = index.skeletons[at] as LineSkeleton;
    if (!isRoot(skeleton) || !index.dialect.isBoundary(skeleton.value)) return;
    const info = boundaryInfo(skeleton.value);
    // The mark goes before the checkpoint; in the context view preserved head messages come before it.
    let messageIndex = messageAt.get(info.anchor ?? '');
    for (let next = position + 1; messageIndex === undefined && next < walk.path.length; next++) {
      messageIndex = messageAt.get((index.skeletons[walk.path[next] as number] as LineSkeleton).uuid ?? '');
    }
    const after = Array.isArray(info.after)
      ? (info.after as readonly string[])
      : [(info.after as SegmentEnds).head, (info.after as SegmentEnds).tail];
    out.push({
      uuid: skeleton.uuid as string,
      line: skeleton.line,
      kind: info.kind,
      trigger: info.trigger,
      preTokens: info.preTokens,
      logicalParentUuid: skeleton.logicalParent,
      link: walk.links.get(at) ?? 'start',
      messageIndex: messageIndex ?? transcript.messages.length,
      preserved: { before: info.before, after },
      metadata: info.metadata,
      timestamp: info.timestamp,
    });
  });
  return out;
}
