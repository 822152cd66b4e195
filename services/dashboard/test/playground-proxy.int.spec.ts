import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import type { FastifyInstance } from "fastify";
import { buildTestConsole } from "./support/test-console.ts";

// The playground's routes each call their own public API operation with the account's
// playground key, pass the body through untouched and hand back the API's answer as it came:
// status, body and the headers a caller would act on. Audiences side by side (issue 35) go
// through the same door as a ranking and a panel.

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

let database: TestDatabase;
let app: FastifyInstance;
let gateway: Server;
const received: Received[] = [];

beforeAll(async () => {
  database = await createTestDatabase("dashproxy");
  // A stand-in gateway that refuses a ranking across audiences the way the real one refuses one.
  gateway = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
      if (req.url === "/api/v1/rank/audiences") {
        res.writeHead(422, { "content-type": "application/json", "x-request-id": "req-audiences", "x-ratelimit-remaining": "7", "retry-after": "3", "x-internal": "not for the browser" });
        res.end('{"error":"audiences[1].name must be unique among the request\'s audiences (compared without regard to case or surrounding spaces)"}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(`{"answered":${JSON.stringify(req.url)}}`);
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  app = await buildTestConsole(database.db, { gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await app?.close();
  await new Promise((r) => gateway?.close(r));
  await database?.destroy();
});

async function signUp(email: string) {
  const res = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email, password: "a long password" } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
  const me = (await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ csrfToken: string }>();
  return (route: string, payload: string) =>
    app.inject({ method: "POST", url: `/console/api/playground/${route}`, headers: { cookie, "x-csrf-token": me.csrfToken, "content-type": "application/json" }, payload });
}

describe("the playground's proxy to the public API", () => {
  it("sends a ranking across audiences to POST /api/v1/rank/audiences with the playground key, byte for byte, and returns the API's refusal as it came", async () => {
    const post = await signUp("audiences-proxy@example.com");
    const body = '{"assets":[{"url":"data:image/png;base64,AAAA","id":"a.png"}], "audiences":[{"name":"Skeptics"},{"name":" skeptics"}] }';
    const res = await post("rank-audiences", body);

    const sent = received.at(-1)!;
    expect(sent).toMatchObject({ method: "POST", url: "/api/v1/rank/audiences", body });
    expect(sent.authorization).toMatch(/^Bearer agk_live_[\w-]{40,}$/);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: "audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces)" });
    expect(res.headers).toMatchObject({ "x-request-id": "req-audiences", "x-ratelimit-remaining": "7", "retry-after": "3" });
    expect(res.headers["x-internal"]).toBeUndefined();
  });

  it("calls each operation's own path with one and the same key for the account", async () => {
    const post = await signUp("every-route@example.com");
    const routes = { rank: "/api/v1/rank", pairwise: "/api/v1/pairwise", "rank-audiences": "/api/v1/rank/audiences" };
    const keys = new Set<string | undefined>();
    for (const [route, path] of Object.entries(routes)) {
      await post(route, "{}");
      expect(received.at(-1)!.url, route).toBe(path);
      keys.add(received.at(-1)!.authorization);
    }
    expect(keys.size).toBe(1);
  });

  it("refuses a ranking across audiences without a session before anything reaches the gateway", async () => {
    const before = received.length;
    const res = await app.inject({ method: "POST", url: "/console/api/playground/rank-audiences", headers: { "content-type": "application/json" }, payload: "{}" });
    expect(res.statusCode).toBe(401);
    expect(received.length).toBe(before);
  });
});

describe("when the gateway cannot be reached", () => {
  it("answers 502 in words for a ranking across audiences, as for a ranking", async () => {
    const offline = await buildTestConsole(database.db, { gatewayUrl: "http://127.0.0.1:9" });
    try {
      const signUpRes = await offline.inject({ method: "POST", url: "/console/api/signup", payload: { email: "offline@example.com", password: "a long password" } });
      const cookie = String(signUpRes.headers["set-cookie"]).split(";")[0]!;
      const { csrfToken } = (await offline.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ csrfToken: string }>();
      const res = await offline.inject({ method: "POST", url: "/console/api/playground/rank-audiences", headers: { cookie, "x-csrf-token": csrfToken, "content-type": "application/json" }, payload: "{}" });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: "The ranking service could not be reached; try again in a moment." });
    } finally {
      await offline.close();
    }
  });
});
