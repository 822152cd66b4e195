import { z } from "zod";

/**
 * Parses the environment once at start-up. A bad value stops the process with one line per
 * problem naming the variable, instead of failing later inside a request.
 */
export function loadConfig<T extends z.ZodType>(schema: T, env: Record<string, string | undefined> = process.env): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
  throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * A service's start: runs `load` (its config, and anything else read from settings) and, on a
 * ConfigError, prints the message and exits 1, so a bad setting stops the process with its
 * sentences rather than a stack trace. Any other error propagates.
 */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

/** Shared variables every service reads. */
export const BaseEnv = z.object({
  /** Comma-separated NATS servers; `tls://` ones require TLS (checked against NATS_TLS_CA, else the system's CAs). */
  NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  /**
   * This process's NATS user and password (one user per service, each allowed only its own
   * subjects: docs/deploy.md, "NATS users"). Empty: no authentication, as the local dev NATS.
   */
  NATS_USER: z.string().max(64).default(""),
  NATS_PASSWORD: z.string().max(256).default(""),
  /** CA certificate file (PEM) the NATS server's certificate is checked against; set, connections require TLS. */
  NATS_TLS_CA: z.string().default(""),
  /** Client certificate and key files (PEM), for a NATS server that verifies its clients (mutual TLS). */
  NATS_TLS_CERT: z.string().default(""),
  NATS_TLS_KEY: z.string().default(""),
  DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/test"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** A `"true"`/`"false"` (or `"1"`/`"0"`) setting from the environment; unset or empty means `def`. */
export const envBool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((v) => (v === "" ? def : v === "true" || v === "1"));

/** A flag that is off unless set to `"true"` or `"1"`. */
export const envFlag = envBool(false);

/** An integer from the environment with bounds. */
export const envInt = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(def);

/** Variables of every worker service: the NATS namespace and the health/metrics listener. */
export const WorkerEnv = BaseEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).default(""),
  /** Port of /healthz, /readyz and /metrics (0 serves none). */
  HEALTH_PORT: envInt(0, 0, 65535),
  HEALTH_HOST: z.string().default("0.0.0.0"),
});
