import { z } from "zod";
import { ConfigError } from "./config.ts";
import { createSecretBox, type SecretBox } from "./secret-box.ts";

/**
 * ADRANK_SECRETS_KEY: seals secrets that more than one service reads, today the webhook
 * signing secrets (the console makes them, the gateway signs with them). Both services must
 * be given the same value.
 */
export const secretsKeySetting = z.preprocess(
  // Empty reads as unset: compose passes `${ADRANK_SECRETS_KEY:-}` through as "".
  (value) => (value === "" ? undefined : value),
  z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
);

/**
 * Used when ADRANK_SECRETS_KEY is unset outside production, so that a gateway and a console
 * started without settings (npm start, the tests) still agree. It is public: values sealed
 * under it are not protected.
 */
export const DEVELOPMENT_SECRETS_KEY = "adrank-development-only-secrets-key-never-use-in-production";

/**
 * The key ADRANK_SECRETS_KEY names, or the development key when it is unset and NODE_ENV is
 * not `production`; in production a missing key is a ConfigError (the service does not start).
 */
export function secretsKeyOf(config: { ADRANK_SECRETS_KEY?: string | undefined; NODE_ENV: string }): { key: string; development: boolean } {
  if (config.ADRANK_SECRETS_KEY) return { key: config.ADRANK_SECRETS_KEY, development: false };
  if (config.NODE_ENV === "production") {
    throw new ConfigError(
      "invalid configuration:\n  ADRANK_SECRETS_KEY: is required in production (32+ characters, e.g. `openssl rand -hex 32`; the same value for the gateway and the console): it seals the webhook signing secrets at rest",
    );
  }
  return { key: DEVELOPMENT_SECRETS_KEY, development: true };
}

/** What a service logs at start when it runs on the development key. */
export const DEVELOPMENT_SECRETS_KEY_WARNING =
  "ADRANK_SECRETS_KEY is not set: webhook signing secrets are sealed under the public development key. Set it (the same value for the gateway and the console) anywhere but a laptop.";

/** The box of the webhook signing secrets, under ADRANK_SECRETS_KEY. */
export function webhookSecretBox(key: string): SecretBox {
  return createSecretBox(key, "webhook-secrets");
}
