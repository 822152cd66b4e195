import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { TestCert } from "./self-signed-cert.ts";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestHttpsServer {
  /** https://127.0.0.1:<port> or https://[::1]:<port> */
  origin: string;
  port: number;
  /** TCP connections accepted so far: proves a refused fetch never connected. */
  connections(): number;
  /** Requests seen, with their Host header. */
  requests: { path: string; host: string | undefined }[];
  /** Route a path to a handler; unknown paths answer 404. */
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** An https server on loopback only (127.0.0.1 unless told ::1), port chosen by the system. */
export async function startTestHttpsServer(cert: TestCert, host: "127.0.0.1" | "::1" = "127.0.0.1"): Promise<TestHttpsServer> {
  const routes = new Map<string, Handler>();
  const requests: TestHttpsServer["requests"] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    requests.push({ path: req.url ?? "", host: req.headers.host });
    const handler = routes.get(req.url ?? "");
    if (handler) handler(req, res);
    else res.writeHead(404).end("not found");
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: host === "::1" ? `https://[::1]:${port}` : `https://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    requests,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
