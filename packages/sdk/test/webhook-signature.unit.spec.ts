import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, signWebhookPayload, verifyWebhookSignature } from "../src/index.ts";

const SECRET = "whsec_current_0123456789abcdef";
const OLD_SECRET = "whsec_rotated_out_fedcba9876543210";
const T = 1_800_000_000;
const body = JSON.stringify({ request_id: "3f2a9c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b", ranked: [], note: "ünïcode ✓" });
const at = { now: T };

describe("webhook signatures", () => {
  it("match an HMAC-SHA256 computed independently with node:crypto over `<t>.<body>`", async () => {
    const expected = createHmac("sha256", SECRET).update(`${T}.${body}`, "utf8").digest("hex");
    expect(await signWebhookPayload(body, [SECRET], T)).toBe(`t=${T},v1=${expected}`);
    expect(await verifyWebhookSignature(body, `t=${T},v1=${expected}`, SECRET, at)).toEqual({ ok: true, timestamp: T });
  });

  it("match a fixed known answer (a change to the scheme breaks every receiver)", async () => {
    // From `printf '1700000000.{}' | openssl dgst -sha256 -hmac key`.
    const known = "9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae";
    expect(createHmac("sha256", "key").update("1700000000.{}").digest("hex")).toBe(known);
    expect(await signWebhookPayload("{}", ["key"], 1_700_000_000)).toBe(`t=1700000000,v1=${known}`);
    expect(await verifyWebhookSignature("{}", `t=1700000000,v1=${known}`, "key", { now: 1_700_000_000 })).toEqual({ ok: true, timestamp: 1_700_000_000 });
  });

  it("verify what they sign, from a string or the raw bytes", async () => {
    const header = await signWebhookPayload(body, [SECRET], T);
    expect(await verifyWebhookSignature(body, header, SECRET, at)).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhookSignature(new TextEncoder().encode(body), header, SECRET, at)).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhookSignature(Buffer.from(body, "utf8"), header, SECRET, at)).toEqual({ ok: true, timestamp: T });
  });

  it("refuse a tampered body and the wrong secret", async () => {
    const header = await signWebhookPayload(body, [SECRET], T);
    const tampered = body.replace("ranked", "rankeD");
    expect(await verifyWebhookSignature(tampered, header, SECRET, at)).toEqual({ ok: false, reason: "no signature matches this secret and body" });
    expect(await verifyWebhookSignature(`${body} `, header, SECRET, at)).toMatchObject({ ok: false });
    expect(await verifyWebhookSignature(body, header, "whsec_someone_else", at)).toEqual({ ok: false, reason: "no signature matches this secret and body" });
  });

  it("refuse a timestamp further from now than the tolerance, either way, and a moved timestamp", async () => {
    const header = await signWebhookPayload(body, [SECRET], T);
    const late = T + DEFAULT_WEBHOOK_TOLERANCE_SECONDS + 1;
    expect(await verifyWebhookSignature(body, header, SECRET, { now: T + DEFAULT_WEBHOOK_TOLERANCE_SECONDS })).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(body, header, SECRET, { now: late })).toEqual({ ok: false, reason: "timestamp is more than 300 s from now (a replay, or a clock off)" });
    expect(await verifyWebhookSignature(body, header, SECRET, { now: T - 301 })).toMatchObject({ ok: false });
    expect(await verifyWebhookSignature(body, header, SECRET, { now: late, toleranceSeconds: 3_600 })).toMatchObject({ ok: true });
    // A replay with a fresh t= but the old signature: the timestamp is signed too.
    expect(await verifyWebhookSignature(body, header.replace(`t=${T}`, `t=${late}`), SECRET, { now: late })).toMatchObject({ ok: false, reason: "no signature matches this secret and body" });
  });

  it("read the receiver's clock when no `now` is given", async () => {
    const fresh = Math.floor(Date.now() / 1000);
    expect(await verifyWebhookSignature(body, await signWebhookPayload(body, [SECRET], fresh), SECRET)).toEqual({ ok: true, timestamp: fresh });
    expect(await verifyWebhookSignature(body, await signWebhookPayload(body, [SECRET], fresh - 3_600), SECRET)).toMatchObject({ ok: false });
  });

  it("say why a missing or malformed header fails, never throwing", async () => {
    const v1 = createHmac("sha256", SECRET).update(`${T}.${body}`).digest("hex");
    const malformed = { ok: false, reason: "Adrank-Signature header is malformed" };
    expect(await verifyWebhookSignature(body, undefined, SECRET, at)).toEqual({ ok: false, reason: "no Adrank-Signature header" });
    expect(await verifyWebhookSignature(body, null, SECRET, at)).toEqual({ ok: false, reason: "no Adrank-Signature header" });
    expect(await verifyWebhookSignature(body, "", SECRET, at)).toMatchObject({ ok: false });
    for (const header of [`v1=${v1}`, `t=${T}`, `t=abc,v1=${v1}`, `t=-5,v1=${v1}`, `t=${T}v1=${v1}`, "garbage", `t=1e9,v1=${v1}`]) {
      expect(await verifyWebhookSignature(body, header, SECRET, at), header).toEqual(malformed);
    }
    expect(await verifyWebhookSignature(body, `t=${T},v1=${v1.slice(0, 10)}`, SECRET, at)).toMatchObject({ ok: false });
    expect(await verifyWebhookSignature(body, ` t=${T} , v1=${v1} `, SECRET, at)).toMatchObject({ ok: true });
  });

  it("carry one v1 per secret while one rotates out, so a receiver holding either verifies", async () => {
    const header = await signWebhookPayload(body, [SECRET, OLD_SECRET], T);
    const hmac = (secret: string) => createHmac("sha256", secret).update(`${T}.${body}`).digest("hex");
    expect(header).toBe(`t=${T},v1=${hmac(SECRET)},v1=${hmac(OLD_SECRET)}`);
    expect(await verifyWebhookSignature(body, header, SECRET, at)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(body, header, OLD_SECRET, at)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(body, header, "whsec_neither", at)).toMatchObject({ ok: false });
  });

  it("need a secret to sign with", async () => {
    await expect(signWebhookPayload(body, [], T)).rejects.toThrow("at least one secret");
  });
});
