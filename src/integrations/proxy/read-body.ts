import type { IncomingMessage } from 'node:http';

/** A request body read in full, or the news that it is larger than allowed. */
export type BodyRead =
  | { readonly kind: 'body'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'closed' };

/**
 * Reads a request body up to `limit` bytes. A declared `content-length` over the limit is refused before
 * reading anything; a body that grows past it stops being read at that point (the rest is never buffered).
 * `closed` means the client went away before the body ended.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      request.off('error', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading: the socket is closed after the 413 goes out, so the rest is never held in memory.
        request.pause();
        chunks.length = 0;
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ kind: 'body', bytes: Buffer.concat(chunks, size) });
    const onClose = (): void => settle({ kind: 'closed' });
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
    request.on('error', onClose);
  });
}
