import { connect, type ConnectionOptions, type NatsConnection } from "@nats-io/transport-node";
import { inboxPrefix } from "./nats-permissions.ts";
import { skipErrorOnSettledRequests } from "./settled-request-cancel.ts";

export type { NatsConnection };

/**
 * How a process proves who it is to NATS, as the environment names it (BaseEnv in
 * @adrank/runtime; `process.env` fits too). Empty or missing fields mean: no authentication,
 * and TLS only when a server address says `tls://`.
 */
export interface NatsCredentials {
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA?: string | undefined;
  NATS_TLS_CERT?: string | undefined;
  NATS_TLS_KEY?: string | undefined;
}

export interface NatsOptions {
  url: string;
  /** Shown in the server's connection list; use the service name. */
  name: string;
  /** The process's NATS user, password and TLS files (its config, or process.env). */
  credentials?: NatsCredentials;
  /**
   * Skip the stack trace nats.js captures for every request (two Error objects each, JetStream
   * publishes included). Errors keep their message and cause; only the caller's stack is lost.
   * Worth it on hot paths: about a tenth of the ledger's CPU per command, and a sixteenth of the
   * gateway's per rank request (reserve, image look-up, job publish, settle). Default true; a
   * tool that wants the caller's stack in an error turns it off.
   */
  noAsyncTraces?: boolean;
}

/**
 * Connects with reconnection that never gives up: a service outlives a NATS restart and
 * its readiness probe reports the gap. A server that refuses the credentials fails the
 * connection at once, with a message naming the user (never the password).
 */
export async function connectToNats({ url, name, credentials = {}, noAsyncTraces = true }: NatsOptions): Promise<NatsConnection> {
  skipErrorOnSettledRequests();
  const servers = url.split(",").map((s) => s.trim());
  const security = natsSecurityOptions(servers, credentials);
  try {
    return await connect({
      servers,
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: false,
      timeout: 5_000,
      noAsyncTraces,
      ...security,
    });
  } catch (err) {
    if (err instanceof Error && err.name === "AuthorizationError") {
      const who = security.user ? `user "${security.user}"` : "a connection without credentials";
      throw new Error(`NATS at ${url} refused ${who}: check NATS_USER and NATS_PASSWORD`, { cause: err });
    }
    throw err;
  }
}

/**
 * The connection options that authenticate and encrypt: user and password, an inbox prefix
 * of the user's own (the only replies its NATS permissions let it read), and TLS when a CA
 * is given or a server address is `tls://`. Throws on a half-given setting.
 */
export function natsSecurityOptions(servers: string[], c: NatsCredentials): Pick<ConnectionOptions, "user" | "pass" | "inboxPrefix" | "tls"> {
  const user = c.NATS_USER ?? "";
  const password = c.NATS_PASSWORD ?? "";
  if (user === "" && password !== "") throw new Error("NATS_PASSWORD is set but NATS_USER is empty");
  if (user !== "" && password === "") throw new Error(`NATS_USER is "${user}" but NATS_PASSWORD is empty`);
  const ca = c.NATS_TLS_CA ?? "";
  const cert = c.NATS_TLS_CERT ?? "";
  const key = c.NATS_TLS_KEY ?? "";
  if ((cert === "") !== (key === "")) throw new Error("NATS_TLS_CERT and NATS_TLS_KEY go together: set both or neither");
  // nats.js reads `tls://` as a plain address; an object here is what makes TLS required.
  const requireTls = ca !== "" || cert !== "" || servers.some((s) => s.toLowerCase().startsWith("tls://"));
  return {
    ...(user !== "" ? { user, pass: password, inboxPrefix: inboxPrefix(user) } : {}),
    ...(requireTls ? { tls: { ...(ca ? { caFile: ca } : {}), ...(cert ? { certFile: cert, keyFile: key } : {}) } } : {}),
  };
}
