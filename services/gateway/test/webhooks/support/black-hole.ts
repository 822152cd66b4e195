import { createServer, type Server, type Socket } from "node:net";

export interface BlackHole {
  /** https://127.0.0.1:<port>/hook */
  url: string;
  /** Connections accepted so far. */
  accepted(): number;
  /** The most connections that were open at once. */
  mostOpen(): number;
  close(): Promise<void>;
}

/**
 * A webhook receiver that is not there: a TCP server on 127.0.0.1 that accepts every
 * connection and never says a word, not even the TLS handshake. An attempt to it lasts until
 * the sender gives up.
 */
export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let most = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    most = Math.max(most, sockets.size);
    // Reads (and ignores) what is sent, so that the sender's close after its time-out is seen.
    socket.resume();
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}/hook`,
    accepted: () => accepted,
    mostOpen: () => most,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
