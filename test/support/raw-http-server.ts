import { createServer, type Socket } from 'node:net';

/** A TCP server on 127.0.0.1 that speaks just enough HTTP/1.1 to misbehave in ways an HTTP server library will not. */
export interface RawHttpServer {
  port: number;
  close(): Promise<void>;
}

/** Hands each connection's socket to `onRequest` once its whole request (head and Content-Length body) has arrived. */
export async function startRawHttpServer(onRequest: (socket: Socket, request: string) => void): Promise<RawHttpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let request = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      request += chunk.toString('latin1');
      const headEnd = request.indexOf('\r\n\r\n');
      const length = Number(/content-length:\s*(\d+)/i.exec(request)?.[1] ?? 0);
      if (headEnd < 0 || request.length < headEnd + 4 + length) return;
      socket.removeAllListeners('data');
      onRequest(socket, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
