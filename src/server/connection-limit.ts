import type { Server } from 'node:net';

/**
 * Caps the simultaneous connections one source address may hold: a connection past the cap is
 * closed at once, before any of it is read (reading a request to answer 429 would spend what the
 * cap protects). Behind a reverse proxy every connection comes from the proxy: raise the cap there,
 * or cap per client at the proxy.
 *
 * @example
 * limitConnectionsPerAddress(app.server, config.maxConnectionsPerAddress, (address) => log.warn({ address }));
 */
export function limitConnectionsPerAddress(
  server: Server,
  max: number,
  onRefused: (address: string) => void = () => undefined,
): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone
    const count = open.get(address) ?? 0;
    if (count >= max) {
      onRefused(address);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
