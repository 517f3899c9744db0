import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes a server gracefully: stops accepting connections, closes every connection that has no request in
 * flight at once (including ones opened but never used, which `closeIdleConnections` leaves open), closes
 * the others as soon as their answer ends, and cuts whatever is left after `graceMs`.
 */
export function trackConnections(server: Server): (graceMs: number) => Promise<void> {
  const busy = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      busy.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  return (graceMs) =>
    new Promise<void>((resolve) => {
      closing = true;
      server.close(() => resolve());
      for (const [socket, count] of busy) if (count === 0) socket.destroy();
      setTimeout(() => server.closeAllConnections(), graceMs).unref();
    });
}
