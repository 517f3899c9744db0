import type { ProtocolAdapter } from './protocol-adapter.js';

/** Reads the prompt size an answer reports while its bytes go by to the client. */
export interface UsageReader {
  push(chunk: Uint8Array): void;
  /** The prompt size the answer reported, once it has ended; `undefined` when it reported none. */
  promptTokens(): number | undefined;
}

/** Longest JSON answer kept to read its usage, and longest event line looked at. */
const JSON_LIMIT = 8 * 1024 * 1024;
const LINE_LIMIT = 1024 * 1024;

/**
 * The reader for an answer of this content type: the whole JSON body (up to 8 MiB), or the server-sent events
 * that carry usage — OpenAI's last chunk (when the client asked for `stream_options.include_usage`),
 * Anthropic's `message_start` and the Responses API's `response.completed`. Other answers report nothing.
 */
export function usageReaderFor(contentType: string, adapter: ProtocolAdapter): UsageReader | undefined {
  if (contentType.includes('text/event-stream')) return new EventStreamUsage(adapter);
  if (contentType.includes('json')) return new JsonUsage(adapter);
  return undefined;
}

class JsonUsage implements UsageReader {
  readonly #adapter: ProtocolAdapter;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(adapter: ProtocolAdapter) {
    this.#adapter = adapter;
  }

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.byteLength;
    if (this.#bytes <= JSON_LIMIT) this.#chunks.push(Buffer.from(chunk));
  }

  promptTokens(): number | undefined {
    if (this.#bytes > JSON_LIMIT) return undefined;
    return this.#adapter.promptTokens(parseJson(Buffer.concat(this.#chunks).toString('utf8')));
  }
}

/**
 * Splits the event stream into lines as it arrives and parses only `data:` lines that mention usage, so a long
 * stream costs a scan, not a copy.
 */
class EventStreamUsage implements UsageReader {
  readonly #adapter: ProtocolAdapter;
  readonly #decoder = new TextDecoder();
  #partial = '';
  #tokens: number | undefined;

  constructor(adapter: ProtocolAdapter) {
    this.#adapter = adapter;
  }

  push(chunk: Uint8Array): void {
    const text = this.#partial + this.#decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    const last = lines.pop() ?? '';
    this.#partial = last.length > LINE_LIMIT ? '' : last;
    for (const line of lines) this.#line(line);
  }

  promptTokens(): number | undefined {
    this.#line(this.#partial + this.#decoder.decode());
    this.#partial = '';
    return this.#tokens;
  }

  #line(line: string): void {
    if (!line.startsWith('data:') || !line.includes('"usage"')) return;
    const event = parseJson(line.slice(5).trim());
    if (typeof event !== 'object' || event === null) return;
    const tokens = this.#adapter.promptTokensOfEvent(event as Record<string, unknown>);
    if (tokens !== undefined && tokens > 0) this.#tokens = tokens;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
