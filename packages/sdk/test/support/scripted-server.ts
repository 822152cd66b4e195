import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

// A local server on 127.0.0.1 speaking the API's wire format for SDK tests: each test scripts
// the answers in order (`next`) and reads back every request it was sent (`record`, with the
// raw body and when it arrived). A request past the end of the script is answered 500.

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** performance.now() when the request had arrived whole. */
  at: number;
}

export interface ScriptedServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startScriptedServer(hooks: { next(): Handler | undefined; record(seen: SeenRequest): void; unscripted: Handler }): Promise<ScriptedServer> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hooks.record({ method: req.method!, url: req.url!, headers: req.headers, body, at: performance.now() });
      (hooks.next() ?? hooks.unscripted)(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
