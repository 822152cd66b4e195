import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What a box seals; each purpose has a key of its own, so one kind of sealed value never opens as another. */
export type SecretPurpose = "playground-keys" | "webhook-secrets";

const DERIVATION: Record<SecretPurpose, { salt: string; info: string }> = {
  // As it was when the box lived in the console: playground keys sealed then still open.
  "playground-keys": { salt: "adrank-dashboard", info: "playground-keys" },
  "webhook-secrets": { salt: "adrank", info: "webhook-signing-secrets" },
};

/**
 * Authenticated encryption (AES-256-GCM) under a key derived (HKDF-SHA256) from a service
 * secret and a purpose. For values a service must use but a database dump must not reveal:
 * the console's playground keys, the webhook signing secrets. Format:
 * `v1.<iv>.<tag>.<ciphertext>` in base64url. `context` (e.g. the owning account) is
 * authenticated, not stored: a sealed value copied to another row does not open there.
 *
 * @example
 * const box = createSecretBox(process.env.ADRANK_SECRETS_KEY!, "webhook-secrets");
 * box.open(box.seal("whsec_…", "acct_1"), "acct_1"); // "whsec_…"
 * box.open(box.seal("whsec_…", "acct_1"), "acct_2"); // null
 */
export function createSecretBox(secret: string, purpose: SecretPurpose) {
  const { salt, info } = DERIVATION[purpose];
  const key = Buffer.from(hkdfSync("sha256", secret, salt, info, 32));
  return {
    seal(plaintext: string, context = ""): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      if (context !== "") cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    /** null when the box was sealed under another secret, purpose or context, or tampered with. */
    open(sealed: string, context = ""): string | null {
      const [version, iv, tag, body, extra] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined || extra !== undefined) return null;
      try {
        // A full 16-byte tag only: a truncated one would be easier to forge.
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
        if (context !== "") decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
