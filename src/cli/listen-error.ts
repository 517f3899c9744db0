import { CondenseError, isCondenseError } from '../errors/condense-error.js';

/**
 * A server's failure to listen as a `LISTEN_FAILED` error that says which address, why in plain words, and
 * what to do. Errors that are not the system's (a bad option raised earlier) pass through unchanged.
 */
export function listenError(error: unknown, host: string, port: number): unknown {
  if (isCondenseError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const known: Record<string, readonly [string, string]> = {
    EADDRINUSE: [
      `port ${port} on ${host} is already in use`,
      'stop the program listening there, or choose another --port (--port 0 picks a free one)',
    ],
    EACCES: [
      `not allowed to listen on ${where}`,
      'ports below 1024 need privileges: choose a --port above 1024',
    ],
    EADDRNOTAVAIL: [
      `${host} is not an address of this machine`,
      'use --host 127.0.0.1 (the default) or an address this machine has',
    ],
    ENOTFOUND: [`the host name ${host} does not resolve`, 'check --host, or pass an IP address'],
    EAI_AGAIN: [`the host name ${host} could not be resolved now`, 'check --host, or pass an IP address'],
  };
  const [message, hint] = (code === undefined ? undefined : known[code]) ?? [
    `cannot listen on ${where}: ${(error as Error).message}`,
    'check --host and --port',
  ];
  return new CondenseError({ code: 'LISTEN_FAILED', message, hint, cause: error });
}
