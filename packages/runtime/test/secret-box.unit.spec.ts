import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, createSecretBox, DEVELOPMENT_SECRETS_KEY, secretsKeyOf, secretsKeySetting, webhookSecretBox } from "../src/index.ts";

describe("createSecretBox", () => {
  it("seals so only the same secret opens, and refuses tampering", () => {
    const box = createSecretBox("s".repeat(40), "playground-keys");
    const sealed = box.seal("agk_live_secretsecret");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("agk_live_");
    expect(box.seal("agk_live_secretsecret")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("agk_live_secretsecret");
    expect(createSecretBox("t".repeat(40), "playground-keys").open(sealed)).toBeNull();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("agk_live_forgedforged").toString("base64url");
    expect(box.open(parts.join("."))).toBeNull();
    // A tag cut short is refused rather than checked on fewer bytes.
    const short = sealed.split(".");
    short[2] = Buffer.from(short[2]!, "base64url").subarray(0, 4).toString("base64url");
    expect(box.open(short.join("."))).toBeNull();
    expect(box.open("garbage")).toBeNull();
    expect(box.open(`${sealed}.more`)).toBeNull();
  });

  it("opens what the console sealed before the box moved here (same derivation for playground keys)", () => {
    // Sealed as services/dashboard/src/secret-box.ts did at commit 2bab725.
    const key = Buffer.from(hkdfSync("sha256", "x".repeat(40), "adrank-dashboard", "playground-keys", 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update("agk_live_old", "utf8"), cipher.final()]);
    const old = ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    expect(createSecretBox("x".repeat(40), "playground-keys").open(old)).toBe("agk_live_old");
  });

  it("keeps purposes and contexts apart: a webhook secret opens only as that account's webhook secret", () => {
    const secret = "k".repeat(40);
    const webhooks = webhookSecretBox(secret);
    const sealed = webhooks.seal("whsec_abc", "acct_1");
    expect(webhooks.open(sealed, "acct_1")).toBe("whsec_abc");
    expect(webhooks.open(sealed, "acct_2")).toBeNull();
    expect(webhooks.open(sealed)).toBeNull();
    expect(createSecretBox(secret, "playground-keys").open(sealed, "acct_1")).toBeNull();
    expect(createSecretBox(secret, "playground-keys").open(createSecretBox(secret, "webhook-secrets").seal("x"))).toBeNull();
  });
});

describe("ADRANK_SECRETS_KEY", () => {
  it("is required in production, and the public development key is used elsewhere", () => {
    expect(secretsKeyOf({ ADRANK_SECRETS_KEY: "a".repeat(32), NODE_ENV: "production" })).toEqual({ key: "a".repeat(32), development: false });
    expect(() => secretsKeyOf({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => secretsKeyOf({ NODE_ENV: "production" })).toThrow(/ADRANK_SECRETS_KEY: is required in production/);
    expect(secretsKeyOf({ NODE_ENV: "development" })).toEqual({ key: DEVELOPMENT_SECRETS_KEY, development: true });
  });

  it("refuses a key shorter than 32 characters", () => {
    expect(secretsKeySetting.safeParse("short").success).toBe(false);
    expect(secretsKeySetting.safeParse("b".repeat(32)).success).toBe(true);
    expect(secretsKeySetting.safeParse(undefined)).toMatchObject({ success: true, data: undefined });
    expect(secretsKeySetting.safeParse("")).toMatchObject({ success: true, data: undefined });
  });
});
