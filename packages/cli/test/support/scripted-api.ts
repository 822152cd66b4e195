import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A local server on 127.0.0.1 speaking the API's wire format for CLI tests: each test scripts
// the answers in order (`next`) and reads back every request it was sent (`record`). A request
// past the end of the script is answered 500, so a test that sends more than it expects fails.

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A request as the server saw it: the body parsed as JSON when there was one. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown> | null;
}

/** An answer with a JSON body, the status and the request id the API would send. */
export const jsonAnswer =
  (requestId: string) =>
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId, ...headers }).end(JSON.stringify(body));
  };

export interface ScriptedApi {
  baseUrl: string;
  close(): Promise<void>;
}

export interface ScriptHooks {
  next(): Handler | undefined;
  record(seen: Seen): void;
  /** The API's refusal of a request it would not take (a body that breaks the contract), answered instead of the script; null to go on. */
  refuse?(seen: Seen): { status: number; body: unknown } | null;
}

export async function startScriptedApi(requestId: string, hooks: ScriptHooks): Promise<ScriptedApi> {
  const answer = jsonAnswer(requestId);
  const unscripted = answer(500, { error: "no scripted answer" });
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const seen: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: body ? JSON.parse(body) : null };
      hooks.record(seen);
      const refused = hooks.refuse?.(seen);
      if (refused) return answer(refused.status, refused.body)(req, res);
      (hooks.next() ?? unscripted)(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
