import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { TestCert } from "../../../../../packages/images/test/support/self-signed-cert.ts";

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as UTF-8 text. */
  body: string;
}

/** How the receiver answers the n-th request (0-based); it may also take the response over itself. */
export type Answer = (hook: ReceivedWebhook, n: number, res: ServerResponse) => { status: number; headers?: Record<string, string> } | "handled";

export interface WebhookReceiver {
  port: number;
  /** https://127.0.0.1:<port><path> */
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** TCP connections accepted so far: proves a refused delivery never connected. */
  connections(): number;
  answer(fn: Answer): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A webhook receiver over https on 127.0.0.1 (on `port` when given, to come back where one was down). */
export async function startWebhookReceiver(cert: TestCert, port = 0): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let answer: Answer = () => ({ status: 200 });
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    void readBody(req).then((body) => {
      const hook = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      received.push(hook);
      const said = answer(hook, received.length - 1, res);
      if (said !== "handled") res.writeHead(said.status, said.headers).end("ok");
    });
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: (path = "/hook") => `https://127.0.0.1:${bound}${path}`,
    received,
    connections: () => connections,
    answer: (fn) => {
      answer = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
