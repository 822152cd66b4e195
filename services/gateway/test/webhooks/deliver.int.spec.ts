import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HostResolver } from "@adrank/images";
import { verifyWebhookSignature } from "@adrank/sdk";
import { deliverWebhook, type DeliverOptions, type WebhookMessage } from "../../src/webhooks/deliver.ts";
import { makeSelfSignedCert, type TestCert } from "../../../../packages/images/test/support/self-signed-cert.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts";

// Every connection goes to 127.0.0.1. Refused targets are spelled so that a regression would
// reach this same receiver, where the connection counter catches it.

let cert: TestCert;
let receiver: WebhookReceiver;

const SECRET = "whsec_test_secret";
const BODY = JSON.stringify({ object: "rank", note: "café ✓", results: [{ score: 7.25 }] });

/** A DNS stand-in answering from a table, counting how often it is asked. */
function lookupFrom(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { calls });
}

const message = (url: string, over: Partial<WebhookMessage> = {}): WebhookMessage => ({
  url,
  body: BODY,
  secrets: [SECRET],
  event: "request.succeeded",
  requestId: "7d0c7a4e-2b1f-4c55-9a3e-5f7f3f0a8b11",
  deliveryId: "whd_00000000000000000001",
  attempt: 1,
  ...over,
});

const options = (over: Partial<DeliverOptions> = {}): DeliverOptions => ({ timeoutMs: 2_000, allowLoopback: true, ca: cert.cert, ...over });

beforeAll(() => {
  cert = makeSelfSignedCert();
});
beforeEach(async () => {
  receiver = await startWebhookReceiver(cert);
});
afterEach(async () => {
  await receiver.close();
});

describe("deliverWebhook", () => {
  it("POSTs the exact body with the documented, signed headers", async () => {
    const outcome = await deliverWebhook(message(receiver.url("/hook?source=adrank"), { attempt: 3 }), options());
    expect(outcome).toMatchObject({ delivered: true, status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    const hook = receiver.received[0]!;
    expect(hook).toMatchObject({ method: "POST", path: "/hook?source=adrank", body: BODY });
    expect(hook.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(BODY)),
      "adrank-event": "request.succeeded",
      "adrank-request-id": "7d0c7a4e-2b1f-4c55-9a3e-5f7f3f0a8b11",
      "adrank-delivery-id": "whd_00000000000000000001",
      "adrank-delivery-attempt": "3",
      "user-agent": "adrank-webhooks/1",
      host: `127.0.0.1:${receiver.port}`,
    });
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, SECRET)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, "whsec_other")).toMatchObject({ ok: false });
  });

  it("signs with the timestamp of the clock it is given", async () => {
    await deliverWebhook(message(receiver.url()), options({ now: () => 1_700_000_000_500 }));
    const header = receiver.received[0]!.headers["adrank-signature"] as string;
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(await verifyWebhookSignature(BODY, header, SECRET, { now: 1_700_000_010 })).toEqual({ ok: true, timestamp: 1_700_000_000 });
  });

  it("connects to the address it vetted: a name is resolved once, by its own check", async () => {
    const lookup = lookupFrom({ "images.test": ["127.0.0.1"] });
    // images.test exists in no real DNS: the socket can only reach the receiver through the pin.
    const outcome = await deliverWebhook(message(`https://images.test:${receiver.port}/hook`), options({ lookup }));
    expect(outcome).toMatchObject({ delivered: true, status: 200 });
    expect(lookup.calls).toEqual(["images.test"]);
    expect(receiver.received[0]!.headers.host).toBe(`images.test:${receiver.port}`);
  });

  it("refuses a name that now resolves to a private address (DNS rebinding), without connecting", async () => {
    const rebound = lookupFrom({ "images.test": ["10.0.0.1"] });
    expect(await deliverWebhook(message(`https://images.test:${receiver.port}/hook`), options({ lookup: rebound }))).toMatchObject({
      delivered: false,
      status: null,
      error: "the address 10.0.0.1 is in a private network, and webhooks go to public addresses only",
    });
    const mixed = lookupFrom({ "images.test": ["127.0.0.1", "169.254.169.254"] });
    expect((await deliverWebhook(message(`https://images.test:${receiver.port}/hook`), options({ lookup: mixed }))).error).toBe(
      "the address 169.254.169.254 is the cloud instance metadata service, and webhooks go to public addresses only",
    );
    expect(receiver.connections()).toBe(0);
  });

  it("refuses loopback without the test setting, without connecting", async () => {
    const outcome = await deliverWebhook(message(receiver.url()), options({ allowLoopback: false }));
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "the address 127.0.0.1 is a loopback address, and webhooks go to public addresses only" });
    expect(receiver.connections()).toBe(0);
  });

  it("says a name did not resolve", async () => {
    const outcome = await deliverWebhook(message("https://nowhere.test/hook"), options({ lookup: lookupFrom({}) }));
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "the host name nowhere.test could not be resolved" });
  });

  it("does not follow a redirect", async () => {
    receiver.answer(() => ({ status: 302, headers: { location: "/elsewhere" } }));
    expect(await deliverWebhook(message(receiver.url()), options())).toMatchObject({ delivered: false, status: 302, error: "redirect not followed (302)" });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook"]);
  });

  it("counts only 2xx as delivered", async () => {
    receiver.answer((_hook, n) => ({ status: [204, 404, 500, 199 + 400][n]! }));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await deliverWebhook(message(receiver.url()), options()));
    expect(outcomes.map((o) => [o.delivered, o.status, o.error])).toEqual([
      [true, 204, null],
      [false, 404, "answered 404 (Not Found)"],
      [false, 500, "answered 500 (Internal Server Error)"],
      [false, 599, "answered 599"],
    ]);
  });

  it("says the connection was refused when nothing listens", async () => {
    const port = receiver.port;
    await receiver.close();
    const outcome = await deliverWebhook(message(`https://127.0.0.1:${port}/hook`), options());
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "connection refused" });
    receiver = await startWebhookReceiver(cert);
  });

  it("does not trust a certificate no CA vouches for", async () => {
    const outcome = await deliverWebhook(message(receiver.url()), options({ ca: undefined }));
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "TLS certificate is self-signed" });
    expect(receiver.received).toHaveLength(0);
  });

  it("gives up on a receiver that never answers after the time-out", async () => {
    receiver.answer(() => "handled");
    const outcome = await deliverWebhook(message(receiver.url()), options({ timeoutMs: 300 }));
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "timed out after 0.3 s" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("counts DNS in the time-out", async () => {
    const hanging: HostResolver = () => new Promise(() => {});
    const outcome = await deliverWebhook(message("https://images.test/hook"), options({ lookup: hanging, timeoutMs: 200 }));
    expect(outcome).toMatchObject({ delivered: false, status: null, error: "timed out after 0.2 s" });
  });

  it("stops reading an endless answer at the cap instead of waiting for the time-out", async () => {
    receiver.answer((_hook, _n, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(16 * 1024, 97);
      const timer = setInterval(() => res.write(chunk), 5);
      res.on("close", () => clearInterval(timer));
      return "handled";
    });
    const outcome = await deliverWebhook(message(receiver.url()), options({ timeoutMs: 5_000 }));
    expect(outcome).toMatchObject({ delivered: true, status: 200, error: null });
    expect(outcome.durationMs).toBeLessThan(4_000);
  });
});
