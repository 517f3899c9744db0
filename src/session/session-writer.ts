import { randomUUID } from 'node:crypto';
import { CondenseError } from '../errors/condense-error.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import { SESSION_SCHEMA } from './line-schema.js';
import { keepsAttachment, messageForLog, type WritePolicy } from './write-policy.js';

/** Where a session log goes: an append-only byte sink (a file opened for appending, or a test double). */
export interface SessionSink {
  /** Appends bytes at the end; a call writes all of them or fails. */
  append(data: Uint8Array): Promise<void>;
  /** Flushes what was appended to stable storage. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** Where an existing log left off, for a writer that continues it. */
export interface SessionResume {
  readonly sessionId: string;
  readonly leafUuid: string | null;
  readonly knownUuids: Iterable<string>;
}

/** Options of {@link SessionWriter}. */
export interface SessionWriterOptions extends WritePolicy {
  /** @default a random UUID (or the resumed log's id) */
  readonly sessionId?: string;
  /** The clock for timestamps. @default () => new Date() */
  readonly now?: () => Date;
  /** The id generator for record uuids. @default crypto.randomUUID */
  readonly newId?: () => string;
  /**
   * `every-append`: each line is flushed to disk before its append resolves (a crash loses at most the line being
   * written). `on-close`: flushed once, when the writer closes.
   * @default 'every-append'
   */
  readonly durability?: 'every-append' | 'on-close';
  /** Written in the log's header line (model, source, tool…). */
  readonly metadata?: JsonObject;
  /** Continue an existing log (see `openSessionWriter`): no header is written, the chain goes on from its leaf. */
  readonly resume?: SessionResume;
}

/** What a writer wrote and what its policy kept out. */
export interface SessionWriterStats {
  readonly messages: number;
  readonly compactions: number;
  readonly attachments: number;
  readonly titles: number;
  readonly droppedProgress: number;
  readonly droppedAttachments: number;
  readonly imagesReplaced: number;
}

/** What {@link SessionWriter.appendCompaction} takes. */
export interface CompactionInput {
  /** The checkpoint message (summary) that stands for the compacted middle. */
  readonly checkpoint: Message;
  /** Uuids of earlier messages kept verbatim before the checkpoint (system prompt, first turns). @default [] */
  readonly head?: readonly string[];
  /** Uuids of earlier messages kept verbatim after the checkpoint (the latest turns). @default [] */
  readonly tail?: readonly string[];
  /** Trigger, token counts, engine report… @default {} */
  readonly metadata?: JsonObject;
}

/**
 * Writes condense's own append-only session log (see `line-schema.ts`): one self-describing JSON object per line,
 * each line written whole by one append and, by default, flushed before the call resolves. Messages form a chain
 * (each parented to the previous one, or to a given parent to branch); progress ticks are never written;
 * attachments and image payloads follow the write policy; a compaction writes a boundary naming the preserved
 * head and tail and the checkpoint after it. Appends are serialized, so concurrent calls keep their order.
 */
export class SessionWriter {
  readonly sessionId: string;
  private leaf: string | null;
  private readonly known: Set<string>;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private headerPending: boolean;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly counts = {
    messages: 0,
    compactions: 0,
    attachments: 0,
    titles: 0,
    droppedProgress: 0,
    droppedAttachments: 0,
    imagesReplaced: 0,
  };

  private readonly sink: SessionSink;
  private readonly options: SessionWriterOptions;

  constructor(sink: SessionSink, options: SessionWriterOptions = {}) {
    this.sink = sink;
    this.options = options;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
    this.sessionId = options.resume?.sessionId ?? options.sessionId ?? this.newId();
    this.leaf = options.resume?.leafUuid ?? null;
    this.known = new Set(options.resume?.knownUuids ?? []);
    this.headerPending = options.resume === undefined;
  }

  /** The uuid the next message will be parented to. */
  get leafUuid(): string | null {
    return this.leaf;
  }

  /** Counts of what was written and what was kept out. */
  get stats(): SessionWriterStats {
    return { ...this.counts };
  }

  /**
   * Appends a message; returns its uuid (the message's `id` when it is not used yet, else a fresh id). It is
   * parented to the previous message unless `parentUuid` says otherwise (a rewind branches from there).
   */
  async appendMessage(
    message: Message,
    options: { readonly parentUuid?: string | null } = {},
  ): Promise<string> {
    const parent = options.parentUuid === undefined ? this.leaf : options.parentUuid;
    if (parent !== null && !this.known.has(parent)) throw unknownUuid(parent, 'parentUuid');
    const uuid = this.uuidFor(message);
    const { value, imagesReplaced } = messageForLog(message, this.options);
    this.counts.imagesReplaced += imagesReplaced;
    this.counts.messages++;
    this.leaf = uuid;
    await this.write({
      schema: SESSION_SCHEMA,
      type: 'message',
      uuid,
      parentUuid: parent,
      timestamp: this.timestamp(),
      message: value,
    });
    return uuid;
  }

  /** Appends messages in order, each parented to the one before. */
  async appendMessages(messages: readonly Message[]): Promise<string[]> {
    const uuids: string[] = [];
    for (const message of messages) uuids.push(await this.appendMessage(message));
    return uuids;
  }

  /** Progress ticks are UI-only: counted, never written. */
  recordProgress(): void {
    this.counts.droppedProgress++;
  }

  /** Appends an attachment when the policy keeps it; resolves to whether it was written. */
  async appendAttachment(
    attachment: JsonValue,
    options: { readonly messageUuid?: string | null } = {},
  ): Promise<boolean> {
    if (!keepsAttachment(this.options, attachment)) {
      this.counts.droppedAttachments++;
      return false;
    }
    this.counts.attachments++;
    await this.write({
      schema: SESSION_SCHEMA,
      type: 'attachment',
      messageUuid: options.messageUuid === undefined ? this.leaf : options.messageUuid,
      timestamp: this.timestamp(),
      attachment,
    });
    return true;
  }

  /** Appends a title for the session (the latest title wins). */
  setTitle(title: string): Promise<void> {
    this.counts.titles++;
    return this.write({
      schema: SESSION_SCHEMA,
      type: 'title',
      title,
      leafUuid: this.leaf,
      timestamp: this.timestamp(),
    });
  }

  /**
   * Appends a compaction: a boundary record (a new root whose `logicalParentUuid` is the current leaf, naming the
   * preserved head and tail and the checkpoint), then the checkpoint message parented to it. Later messages
   * follow the checkpoint. Throws `INVALID_OPTIONS` when head or tail name a uuid this log does not hold.
   */
  async appendCompaction(input: CompactionInput): Promise<{ boundaryUuid: string; checkpointUuid: string }> {
    const head = [...(input.head ?? [])];
    const tail = [...(input.tail ?? [])];
    for (const uuid of [...head, ...tail]) if (!this.known.has(uuid)) throw unknownUuid(uuid, 'head/tail');
    const boundaryUuid = this.fresh();
    const checkpointUuid = this.uuidFor(input.checkpoint);
    const { value, imagesReplaced } = messageForLog(input.checkpoint, this.options);
    this.counts.imagesReplaced += imagesReplaced;
    this.counts.compactions++;
    this.counts.messages++;
    const logicalParent = this.leaf;
    this.leaf = checkpointUuid;
    const timestamp = this.timestamp();
    await this.write({
      schema: SESSION_SCHEMA,
      type: 'compaction',
      uuid: boundaryUuid,
      parentUuid: null,
      logicalParentUuid: logicalParent,
      anchorUuid: checkpointUuid,
      timestamp,
      preserved: { head, tail },
      metadata: input.metadata ?? {},
    });
    await this.write({
      schema: SESSION_SCHEMA,
      type: 'message',
      uuid: checkpointUuid,
      parentUuid: boundaryUuid,
      timestamp,
      message: value,
    });
    return { boundaryUuid, checkpointUuid };
  }

  /** Waits for pending appends, flushes, and closes the sink. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    if (this.options.durability === 'on-close') await this.sink.sync();
    await this.sink.close();
  }

  private write(line: JsonObject): Promise<void> {
    if (this.closed) {
      return Promise.reject(
        new CondenseError({ code: 'IO_FAILED', message: 'the session writer is closed' }),
      );
    }
    const header = this.headerPending ? this.headerLine(line['timestamp']) : '';
    this.headerPending = false;
    const bytes = Buffer.from(`${header}${JSON.stringify(line)}\n`, 'utf8');
    const everyAppend = (this.options.durability ?? 'every-append') === 'every-append';
    const next = this.queue.then(async () => {
      await this.sink.append(bytes);
      if (everyAppend) await this.sink.sync();
    });
    // A failed append fails its caller; later appends still run.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The header goes out with the first line and carries its time, so timestamps never run backwards. */
  private headerLine(timestamp: JsonValue | undefined): string {
    const header: Record<string, JsonValue> = {
      schema: SESSION_SCHEMA,
      type: 'session',
      sessionId: this.sessionId,
      timestamp: typeof timestamp === 'string' ? timestamp : this.timestamp(),
    };
    if (this.options.metadata !== undefined) header['metadata'] = this.options.metadata;
    return `${JSON.stringify(header)}\n`;
  }

  private uuidFor(message: Message): string {
    const id = message.id;
    if (id !== undefined && id !== '' && !this.known.has(id)) {
      this.known.add(id);
      return id;
    }
    return this.fresh();
  }

  private fresh(): string {
    for (let attempt = 0; attempt < 100; attempt++) {
      const uuid = this.newId();
      if (this.known.has(uuid)) continue;
      this.known.add(uuid);
      return uuid;
    }
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: 'the id generator keeps returning ids this session log already holds',
      hint: 'pass a newId that returns a fresh id on every call',
    });
  }

  private timestamp(): string {
    return this.now().toISOString();
  }
}

function unknownUuid(uuid: string, what: string): CondenseError {
  return new CondenseError({
    code: 'INVALID_OPTIONS',
    message: `${what} ${uuid} names no record of this session log`,
    hint: 'pass the uuid of a message this log already holds',
  });
}
