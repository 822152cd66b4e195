import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body exactly as received, for checks over its bytes (a request signature). */
  raw: string;
  receivedAt: number;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  /** Never answers: for cancellation and timeout tests. */
  | { hang: true };

export interface FakeProvider {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** Most requests the server was handling at one moment. */
  maxInFlight: () => number;
  /** Requests whose client went away before an answer. */
  abandoned: () => number;
  close(): Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 and a random port that records every request and answers
 * with what `reply` decides; tests speak each provider's wire format through it.
 */
export async function startFakeProvider(reply: (req: RecordedRequest, index: number) => Reply): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let abandoned = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Left as text: the assertion that reads it will say what arrived.
      }
      const recorded: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, raw: text, receivedAt: performance.now() };
      const index = requests.push(recorded) - 1;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        inFlight--;
      };
      res.on("close", () => {
        if (!res.writableFinished) abandoned++;
        finish();
      });
      const answer = reply(recorded, index);
      if ("hang" in answer) return;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    maxInFlight: () => maxInFlight,
    abandoned: () => abandoned,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
