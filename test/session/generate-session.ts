/**
 * Deterministic generator of Claude-Code-shaped session files: the envelope and key order of 2.1.x records,
 * assistant responses split into one record per block, tool results parented to their call (parallel calls make
 * side branches), hook progress records, `toolUseResult` duplicates, and rewinds that leave dead branches. Used by
 * the session tests and by `bench/session.bench.ts` (files of a target size and dead-byte share).
 */

/** A seeded PRNG (mulberry32): the same seed gives the same file. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a function returns value file path error test build module import export const let type interface ' +
  'await async promise buffer line record session chain parent leaf branch compact boundary token model tool ' +
  'result call user assistant message content block stream parse scan bytes offset index map set array'
).split(' ');

/** Options of {@link SessionBuilder.turn}. */
export interface TurnOptions {
  /** Multiplies tool output sizes. @default 1 */
  readonly outputScale?: number;
  /** Tiny texts and outputs (property tests). @default false */
  readonly small?: boolean;
  /** At most this many tool rounds. @default 3 */
  readonly maxRounds?: number;
  /** Share of rounds with 2–3 parallel calls. @default 0.3 */
  readonly parallelShare?: number;
  /** Sometimes continue from an earlier parallel result (siblings off the chain). @default false */
  readonly continueFromFirst?: boolean;
  /** Write hook progress records after calls. @default true */
  readonly progress?: boolean;
  /** Sometimes write the last parallel call after the first result, parented to it. @default false */
  readonly interleave?: boolean;
  /** Put nested `uuid`/`parentUuid` keys inside tool inputs and results. @default false */
  readonly noise?: boolean;
}

/** How records become lines: Claude Code's compact JSON, or variants that make the byte probes work harder. */
export interface JsonlStyle {
  /** `spaced`: `", "` and `": "` separators (Python's default). */
  readonly spaced?: boolean;
  /** Move the top-level keys into a random order. */
  readonly shuffleKeys?: boolean;
}

/** Builds records of one session; every record is a plain object in Claude Code's key order. */
export class SessionBuilder {
  readonly records: Record<string, unknown>[] = [];
  private readonly random: () => number;
  private clock = Date.UTC(2026, 0, 10, 9, 0, 0);
  readonly sessionId: string;

  constructor(seed: number) {
    this.random = prng(seed);
    this.sessionId = this.uuid();
  }

  /** A fresh v4-shaped uuid. */
  uuid(): string {
    const hex = (bits: number) =>
      Math.floor(this.random() * 2 ** bits)
        .toString(16)
        .padStart(bits / 4, '0');
    return `${hex(32)}-${hex(16)}-4${hex(12)}-a${hex(12)}-${hex(24)}${hex(24)}`;
  }

  /** Words of about `bytes` characters, with newlines and quotes so JSON escaping is exercised. */
  text(bytes: number): string {
    const parts: string[] = [];
    let length = 0;
    while (length < bytes) {
      const word = WORDS[Math.floor(this.random() * WORDS.length)] as string;
      const roll = this.random();
      const piece = roll < 0.08 ? `${word}\n` : roll < 0.1 ? `"${word}"` : roll < 0.11 ? `${word}→` : word;
      parts.push(piece);
      length += piece.length + 1;
    }
    return parts.join(' ');
  }

  /** A tool output size drawn like real sessions: mostly small, a few very large. */
  outputSize(): number {
    const roll = this.random();
    const between = (low: number, high: number) => Math.floor(low + this.random() * (high - low));
    if (roll < 0.55) return between(200, 2_000);
    if (roll < 0.9) return between(2_000, 17_000);
    if (roll < 0.99) return between(20_000, 100_000);
    return between(150_000, 500_000);
  }

  private envelope(parent: string | null): Record<string, unknown> {
    return {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/user/project',
      sessionId: this.sessionId,
      version: '2.1.39',
      gitBranch: 'main',
      slug: 'linked-soaring-matsumoto',
    };
  }

  private timestamp(): string {
    this.clock += 1000 + Math.floor(this.random() * 5000);
    return new Date(this.clock).toISOString();
  }

  /** Appends a user prompt; returns its uuid. */
  prompt(parent: string | null, text = this.text(40 + Math.floor(this.random() * 400))): string {
    const uuid = this.uuid();
    this.records.push({
      ...this.envelope(parent),
      type: 'user',
      message: { role: 'user', content: text },
      uuid,
      timestamp: this.timestamp(),
    });
    return uuid;
  }

  /** Appends one assistant record (one content block of response `messageId`); returns its uuid. */
  assistantBlock(parent: string, messageId: string, block: Record<string, unknown>): string {
    const uuid = this.uuid();
    this.records.push({
      ...this.envelope(parent),
      message: {
        model: 'claude-opus-4-6',
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 412,
          cache_read_input_tokens: 19_882,
          output_tokens: 9,
        },
      },
      requestId: `req_${this.uuid().replaceAll('-', '').slice(0, 24)}`,
      type: 'assistant',
      uuid,
      timestamp: this.timestamp(),
    });
    return uuid;
  }

  /** Appends a hook progress record; one in ten carries a nested subagent message (a second `uuid` key). */
  progress(parent: string, toolUseId: string): string {
    const uuid = this.uuid();
    const nested = this.random() < 0.1;
    const data = nested
      ? {
          type: 'agent_progress',
          message: { type: 'user', message: { role: 'user', content: this.text(80) }, uuid: this.uuid() },
          agentId: 'a1b2c3d',
        }
      : { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash', command: 'true' };
    this.records.push({
      ...this.envelope(parent),
      type: 'progress',
      data,
      parentToolUseID: toolUseId,
      toolUseID: toolUseId,
      timestamp: this.timestamp(),
      uuid,
    });
    return uuid;
  }

  /** Appends the result of a tool call, with Claude Code's `toolUseResult` duplicate after the uuid. */
  toolResult(parent: string, toolUseId: string, size = this.outputSize(), noise = false): string {
    const uuid = this.uuid();
    const output = this.text(size);
    const extra = noise && this.random() < 0.3 ? { uuid: this.uuid(), parentUuid: this.uuid() } : {};
    this.records.push({
      ...this.envelope(parent),
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content: output }] },
      uuid,
      timestamp: this.timestamp(),
      toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false, ...extra },
      sourceToolAssistantUUID: parent,
    });
    return uuid;
  }

  /**
   * Appends one turn: a prompt, then 1–3 tool rounds (one or two parallel calls each, hook progress after each
   * call), then a closing text. Returns the uuid of the turn's last record.
   */
  turn(parent: string | null, options: TurnOptions = {}): string {
    let tip = this.prompt(parent, options.small === true ? this.text(20) : undefined);
    const rounds = 1 + Math.floor(this.random() * (options.maxRounds ?? 3));
    for (let round = 0; round < rounds; round++) {
      const messageId = `msg_${this.uuid().replaceAll('-', '').slice(0, 24)}`;
      const textSize = options.small === true ? 20 : 60 + this.random() * 300;
      tip = this.assistantBlock(tip, messageId, { type: 'text', text: this.text(textSize) });
      const parallel = this.random() < (options.parallelShare ?? 0.3) ? 2 + Math.floor(this.random() * 2) : 1;
      const calls: { id: string; record: string }[] = [];
      const results = new Map<number, string>();
      const scale = options.outputScale ?? 1;
      const resultOf = (at: number) => {
        const call = calls[at] as { id: string; record: string };
        const uuid = this.toolResult(
          call.record,
          call.id,
          Math.floor(this.outputSize() * scale),
          options.noise === true,
        );
        results.set(at, uuid);
        return uuid;
      };
      // Streaming can write a later block of the response after an earlier call's result, parented to it.
      const interleave = parallel > 1 && options.interleave === true && this.random() < 0.5;
      for (let call = 0; call < parallel; call++) {
        if (interleave && call === parallel - 1) tip = resultOf(0);
        const id = `toolu_${this.uuid().replaceAll('-', '').slice(0, 24)}`;
        tip = this.assistantBlock(tip, messageId, {
          type: 'tool_use',
          id,
          name: 'Bash',
          input: {
            command: `grep -rn "${this.text(12).replaceAll('\n', ' ')}" src`,
            description: 'search',
            ...(options.noise === true && this.random() < 0.3 ? { uuid: this.uuid() } : {}),
          },
        });
        calls.push({ id, record: tip });
        if (options.progress !== false) tip = this.progress(tip, id);
      }
      for (let at = 0; at < calls.length; at++) if (!results.has(at)) resultOf(at);
      const ordered = calls.map((_, at) => results.get(at) as string);
      // Claude Code continues from the last result, or (shapes seen in real files) from an earlier one, which
      // leaves the other calls and results on side branches.
      const from =
        options.continueFromFirst === true ? Math.floor(this.random() * ordered.length) : ordered.length - 1;
      tip = ordered[from] as string;
    }
    const messageId = `msg_${this.uuid().replaceAll('-', '').slice(0, 24)}`;
    const closing = options.small === true ? 30 : 200 + this.random() * 800;
    return this.assistantBlock(tip, messageId, { type: 'text', text: this.text(closing) });
  }

  /** Appends a compaction boundary (a root) and its summary; returns the summary's uuid. */
  compaction(logicalParent: string, trigger: 'auto' | 'manual' = 'auto'): string {
    const uuid = this.uuid();
    const { parentUuid: _parent, ...envelope } = this.envelope(null);
    this.records.push({
      parentUuid: null,
      logicalParentUuid: logicalParent,
      ...envelope,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: this.timestamp(),
      uuid,
      level: 'info',
      compactMetadata: { trigger, preTokens: 150_000 + Math.floor(this.random() * 20_000) },
    });
    const summary = this.uuid();
    this.records.push({
      ...this.envelope(uuid),
      type: 'user',
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation. Summary: ${this.text(200)}`,
      },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
      uuid: summary,
      timestamp: this.timestamp(),
    });
    return summary;
  }

  /** Appends a record without uuid links: a title, a last prompt, a snapshot, a queue operation or an unknown type. */
  sideRecord(kind: 'summary' | 'last-prompt' | 'snapshot' | 'queue' | 'unknown', leaf?: string): void {
    switch (kind) {
      case 'summary':
        this.records.push({ type: 'summary', summary: this.text(30), leafUuid: leaf ?? this.uuid() });
        return;
      case 'last-prompt':
        this.records.push({
          type: 'last-prompt',
          lastPrompt: this.text(40),
          sessionId: this.sessionId,
          ...(leaf === undefined ? {} : { leafUuid: leaf }),
        });
        return;
      case 'snapshot':
        this.records.push({
          type: 'file-history-snapshot',
          messageId: leaf ?? this.uuid(),
          snapshot: { messageId: leaf ?? this.uuid(), trackedFileBackups: {}, timestamp: this.timestamp() },
          isSnapshotUpdate: false,
        });
        return;
      case 'queue':
        this.records.push({
          type: 'queue-operation',
          operation: 'enqueue',
          timestamp: this.timestamp(),
          sessionId: this.sessionId,
          content: this.text(30),
        });
        return;
      case 'unknown':
        this.records.push({
          type: 'future-record',
          uuid: this.uuid(),
          parentUuid: leaf ?? null,
          payload: { nested: { uuid: this.uuid(), parentUuid: this.uuid() } },
        });
        return;
    }
  }

  /** Appends a sidechain (subagent) record hanging off `parent`; returns its uuid. */
  sidechainRecord(parent: string): string {
    const uuid = this.uuid();
    this.records.push({
      ...this.envelope(parent),
      isSidechain: true,
      agentId: 'a1b2c3d',
      type: 'user',
      message: { role: 'user', content: 'Warmup' },
      uuid,
      timestamp: this.timestamp(),
    });
    return uuid;
  }

  /** The records as JSONL text. */
  jsonl(style: JsonlStyle = {}): string {
    const lines = this.records.map((record) => {
      const ordered = style.shuffleKeys === true ? this.shuffled(record) : record;
      return style.spaced === true ? spacedJson(ordered) : JSON.stringify(ordered);
    });
    return `${lines.join('\n')}\n`;
  }

  private shuffled(record: Record<string, unknown>): Record<string, unknown> {
    const keys = Object.keys(record);
    for (let at = keys.length - 1; at > 0; at--) {
      const other = Math.floor(this.random() * (at + 1));
      [keys[at], keys[other]] = [keys[other] as string, keys[at] as string];
    }
    return Object.fromEntries(keys.map((key) => [key, record[key]]));
  }

  /** Bytes written so far (as JSONL). */
  bytes(): number {
    let total = 0;
    for (const record of this.records) total += Buffer.byteLength(JSON.stringify(record)) + 1;
    return total;
  }
}

/** Options of {@link generateForkySession}. */
export interface ForkySessionOptions {
  readonly targetBytes: number;
  /** Share of bytes in dead branches (rewinds), e.g. 0.92 or 0.99. */
  readonly deadShare: number;
  readonly seed: number;
}

/**
 * A session of about `targetBytes` whose dead branches hold `deadShare` of the bytes: the live conversation grows
 * turn by turn, and between live turns the user rewinds — whole branches of turns forked off the live tip and
 * abandoned (the next live turn is parented to the fork point again). The newest record is live.
 */
export function generateForkySession(options: ForkySessionOptions): { text: string; liveTurns: number } {
  const builder = new SessionBuilder(options.seed);
  const liveTarget = options.targetBytes * (1 - options.deadShare);
  let tip: string | null = null;
  let liveBytes = 0;
  let total = 0;
  let liveTurns = 0;
  const lineBytes = (from: number) => {
    let sum = 0;
    for (let at = from; at < builder.records.length; at++)
      sum += Buffer.byteLength(JSON.stringify(builder.records[at])) + 1;
    return sum;
  };
  const liveTurn = () => {
    const mark = builder.records.length;
    tip = builder.turn(tip, { outputScale: 0.5 });
    const added = lineBytes(mark);
    liveBytes += added;
    total += added;
    liveTurns++;
  };
  while (total < options.targetBytes) {
    if (liveBytes < liveTarget * (total / options.targetBytes)) liveTurn();
    else {
      const mark = builder.records.length;
      let branchTip: string | null = tip;
      for (let turn = 0; turn < 3; turn++) branchTip = builder.turn(branchTip);
      total += lineBytes(mark);
    }
  }
  // The newest record must be live, as in a real session that is still going.
  liveTurn();
  return { text: builder.jsonl(), liveTurns };
}

/** JSON with a space after every `:` and `,` outside strings, as Python's `json.dumps` writes by default. */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${spacedJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}
