import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fromRoot } from "./support/paths.ts";

const run = promisify(execFile);
const script = fromRoot("infra/docker/healthcheck.ts");

async function exitCode(...args: string[]): Promise<number> {
  try {
    await run(process.execPath, [script, ...args], { env: { ...process.env, HEALTHCHECK_TIMEOUT_MS: "1000" } });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe("infra/docker/healthcheck.ts", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/healthz") res.writeHead(200).end("ok");
      else if (req.url === "/readyz") res.writeHead(503).end("NATS connection closed");
      else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end("late"), 3000);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test("passes on a 2xx answer", async () => {
    expect(await exitCode(`${base}/healthz`)).toBe(0);
  });

  test("fails on a 503", async () => {
    expect(await exitCode(`${base}/readyz`)).toBe(1);
  });

  test("fails when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await exitCode(`http://127.0.0.1:${port}/healthz`)).toBe(1);
  });

  test("fails when the answer comes too late", async () => {
    expect(await exitCode(`${base}/slow`)).toBe(1);
  });

  test("refuses to run without a URL", async () => {
    expect(await exitCode()).toBe(2);
    expect(await exitCode("not a url")).toBe(2);
  });
});
