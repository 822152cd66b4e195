import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, rank } from "../support/http.ts";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, type Account, type Stack } from "../support/stack.ts";

// Traces and metrics of the real services: every process exports OTLP/HTTP JSON to a
// receiver on loopback and serves Prometheus text on its own HEALTH_PORT.

// OTLP's span kinds (the API's enum plus one).
const OTLP = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;
const SERVICES = ["gateway", "ledger", "scorer", "refinement", "panel-voter"] as const;

const audience = { name: "Home bakers", demographics: { ageRange: "45-54" } };
// The same design at two sizes scores within 0.30, so refinement runs a panel on them.
const assets = [
  { url: creative(5, 96, 96), id: "five-96" },
  { url: creative(5, 104, 104), id: "five-104" },
];

describe("observability end to end", () => {
  let receiver: OtlpReceiver;
  let stack: Stack;
  let account: Account;
  const healthPorts: Record<string, number> = {};

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    for (const s of SERVICES) healthPorts[s] = await freePort();
    const health = (s: string) => ({ HEALTH_PORT: String(healthPorts[s]), HEALTH_HOST: "127.0.0.1" });
    stack = await startStack({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        OTEL_METRICS_EXPORTER: "none",
        OTEL_LOGS_EXPORTER: "none",
        OTEL_TRACES_SAMPLER: "always_on",
      },
      gatewayEnv: { ...health("gateway"), RANK_TIMEOUT_MS: "60000" },
      ledgerEnv: health("ledger"),
      scorerEnv: health("scorer"),
      refinementEnv: health("refinement"),
      voterEnv: health("panel-voter"),
    });
    account = await stack.createAccount({ credits: 50 });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  }, 30_000);

  /** Waits until the trace holds a span matching every predicate (spans arrive in batches). */
  const awaitTrace = async (traceId: string, wanted: Array<(s: ReceivedSpan) => boolean>, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const spans = receiver.trace(traceId);
      if (wanted.every((w) => spans.some(w))) return spans;
      await new Promise((r) => setTimeout(r, 200));
    }
    return receiver.trace(traceId);
  };

  const rootOf = async (path: string, requestStarted: number) => {
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const root = receiver.spans.find((s) => s.service === "gateway" && s.kind === OTLP.SERVER && s.parentSpanId === "" && s.attributes["url.path"] === path && receiver.spans.indexOf(s) >= requestStarted);
      if (root) return root;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no gateway server span for ${path}; got ${JSON.stringify(receiver.spans.map((s) => `${s.service}:${s.name}`))}`);
  };

  it("makes one rank request one connected trace: gateway, ledger, scorer, refinement, panel-voter and model calls", async () => {
    const before = receiver.spans.length;
    const res = await rank(stack.baseUrl, account.key, { assets, audience, goal: "click-through-rate" });
    expect(res.status, stack.output()).toBe(200);
    expect(res.body.summary.close_pair_refinement.pairs_evaluated).toBe(1);
    const root = await rootOf("/api/v1/rank", before);

    const spans = await awaitTrace(root.traceId, [
      (s) => s.service === "gateway" && s.kind === OTLP.CLIENT && s.name === "ledger reserve",
      (s) => s.service === "ledger" && s.kind === OTLP.SERVER && s.name === "ledger reserve",
      (s) => s.service === "ledger" && s.kind === OTLP.SERVER && s.name === "ledger settle",
      (s) => s.service === "scorer" && s.kind === OTLP.CONSUMER && s.name === "score job",
      (s) => s.service === "refinement" && s.kind === OTLP.CONSUMER && s.name === "refine job",
      (s) => s.service === "panel-voter" && s.kind === OTLP.CONSUMER && s.name === "vote job",
      (s) => s.service === "scorer" && s.kind === OTLP.CLIENT && s.attributes["gen_ai.operation.name"] === "chat",
      (s) => s.service === "panel-voter" && s.kind === OTLP.CLIENT && s.attributes["gen_ai.operation.name"] === "chat",
      (s) => s.service === "gateway" && s.attributes["http.route"] === "/api/v1/rank",
    ]);
    const names = spans.map((s) => `${s.service}:${s.name}`);

    // One score job per asset, one vote job per panel seat, the reservation settled once.
    expect(spans.filter((s) => s.name === "score job"), names.join("\n")).toHaveLength(2);
    expect(spans.filter((s) => s.name === "vote job")).toHaveLength(5);
    expect(spans.filter((s) => s.service === "ledger" && s.name === "ledger settle")).toHaveLength(1);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(SERVICES));

    // Connected: every span but the root has its parent in the same trace.
    const ids = new Set(spans.map((s) => s.spanId));
    const orphans = spans.filter((s) => s !== root && !ids.has(s.parentSpanId));
    expect(orphans.map((s) => `${s.service}:${s.name}`)).toEqual([]);

    // Model calls carry the GenAI attributes.
    const modelCall = spans.find((s) => s.service === "scorer" && s.attributes["gen_ai.operation.name"] === "chat")!;
    expect(modelCall.attributes).toMatchObject({ "gen_ai.system": "sim", "gen_ai.request.model": expect.any(String) });
    // Postgres calls of the gateway (the key lookup) are part of the request's trace.
    expect(spans.some((s) => s.service === "gateway" && (s.attributes["db.system.name"] ?? s.attributes["db.system"]) === "postgresql")).toBe(true);
  });

  it("exports no API key, authorization header or image bytes in any span", () => {
    const exported = receiver.rawBodies.join("\n");
    expect(exported.length).toBeGreaterThan(0);
    expect(exported).not.toContain(account.key);
    expect(exported).not.toContain("agk_live_");
    expect(exported).not.toMatch(/data:image/);
    expect(exported.toLowerCase()).not.toContain("bearer ");
  });

  it("writes the trace id and the request id into the gateway's log lines", async () => {
    const before = receiver.spans.length;
    const res = await rank(stack.baseUrl, account.key, { assets: assets.slice(0, 1), audience, goal: "click-through-rate" });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id")!;
    const root = await rootOf("/api/v1/rank", before);
    await new Promise((r) => setTimeout(r, 300));
    const lines = stack.output().split("\n").filter((l) => l.startsWith("gateway|") && l.includes(requestId));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes(`"trace_id":"${root.traceId}"`)), lines.join("\n")).toBe(true);
    expect(stack.output()).not.toContain(account.key);
  });

  it("serves Prometheus metrics on every service's health port", async () => {
    const scrape = async (service: string) => {
      const res = await call(`http://127.0.0.1:${healthPorts[service]}`, "GET", "/metrics");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      return String(res.body);
    };
    const gateway = await scrape("gateway");
    expect(gateway).toMatch(/adrank_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/rank"[^}]*status="200"[^}]*\} [1-9]/);
    expect(gateway).toMatch(/adrank_billed_units_total\{[^}]*\} [1-9]/);
    const scorer = await scrape("scorer");
    expect(scorer).toMatch(/adrank_evaluations_total\{[^}]*outcome="ok"[^}]*\} [1-9]/);
    expect(scorer).toMatch(/adrank_model_call_seconds_count\{[^}]*provider="sim"[^}]*\} [1-9]/);
    expect(scorer).toMatch(/adrank_jobs_backlog\{[^}]*\} 0/);
    expect(await scrape("panel-voter")).toMatch(/adrank_votes_total\{[^}]*\} [1-9]/);
    expect(await scrape("refinement")).toMatch(/adrank_panels_total\{[^}]*\} [1-9]/);
    const ledger = await scrape("ledger");
    for (const series of ["adrank_ledger_commands_total", "adrank_ledger_conflicts_total", "adrank_ledger_duplicates_total", "adrank_ledger_exhausted_total"]) expect(ledger).toContain(series);
    // The public port does not expose them.
    expect((await call(stack.baseUrl, "GET", "/metrics")).status).toBe(404);
  });
});
