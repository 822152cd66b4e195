// NATS of the compose stack as an intruder on the network finds it, tried from the host through
// the port the smoke publishes on 127.0.0.1 (test/deploy/nats-published.yml):
//   node test/deploy/nats-auth-checks.ts      (run by scripts/deploy-smoke.sh once the stack is up)
// 1. the server requires TLS and authentication (its INFO line), and refuses a client without
//    credentials;
// 2. the gateway's user is refused publishing to the ledger's grant subject, while the ledger
//    answers its balance request on the same connection;
// 3. the admin user may grant.
// Prints one line per check and exits 1 at the first failure.
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { join } from "node:path";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, topology } from "@adrank/messaging";
import { natsPassword } from "./compose-project.ts";

const port = Number(process.env.NATS_PORT ?? "14222");
const tlsDir = process.env.NATS_TLS_DIR;
const url = `${tlsDir ? "tls" : "nats"}://127.0.0.1:${port}`;
const ca = tlsDir ? { NATS_TLS_CA: join(tlsDir, "ca.pem") } : {};
const topo = topology("");

function check(condition: unknown, message: string, detail?: unknown): asserts condition {
  if (!condition) {
    console.error(`FAIL ${message}${detail === undefined ? "" : `: ${detail instanceof Error ? `${detail.message}${detail.cause ? ` (${String(detail.cause)})` : ""}` : JSON.stringify(detail)}`}`);
    process.exit(1);
  }
}

/** The server's first line, read before any TLS: what it demands of every client. */
const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk.toString("utf8");
    const end = text.indexOf("\r\n");
    if (end < 0) return;
    socket.destroy();
    resolve(JSON.parse(text.slice("INFO ".length, end)) as Record<string, unknown>);
  });
  socket.on("error", reject);
});
check(info.auth_required === true, "the NATS server requires authentication", info);
check(!tlsDir || info.tls_required === true, "the NATS server requires TLS", info);
const anonymous = await connectToNats({ url, name: "smoke-anonymous", credentials: ca }).then(
  async (nc) => {
    await nc.close();
    return null;
  },
  (err: unknown) => err,
);
check(anonymous instanceof Error && /refused a connection without credentials/.test(anonymous.message), "NATS refuses a client without credentials", anonymous ?? "it was let in");
console.log(`ok nats: ${tlsDir ? "TLS and " : ""}authentication required; a client without credentials is refused`);

const gateway = await connectToNats({ url, name: "smoke-as-gateway", credentials: { NATS_USER: "gateway", NATS_PASSWORD: natsPassword("gateway"), ...ca } });
try {
  const asGateway = createLedgerClient(gateway, topo, { timeoutMs: 5_000 });
  const balance = await asGateway.balance({ accountId: "deploy-smoke-nats-check" });
  check(balance.ok, "the gateway's user asks the ledger for a balance", balance);
  const forged = await asGateway.grant({ accountId: "deploy-smoke-nats-check", grantId: `forged-${randomUUID()}`, credits: 1_000_000 }).then(
    (r) => r,
    (err: unknown) => err,
  );
  check(forged instanceof Error && /Permissions Violation for Publish to "svc\.ledger\.grant"/.test(String(forged.cause)), "the gateway's user is refused publishing to the grant subject", forged);
  console.log("ok nats: the gateway's user is refused the ledger's grant subject (its balance request is answered)");
} finally {
  await gateway.close();
}

const admin = await connectToNats({ url, name: "smoke-as-admin", credentials: { NATS_USER: "admin", NATS_PASSWORD: natsPassword("admin"), ...ca } });
try {
  const granted = await createLedgerClient(admin, topo, { timeoutMs: 5_000 }).grant({ accountId: "deploy-smoke-nats-check", grantId: `smoke-${randomUUID()}`, credits: 1 });
  check(granted.ok, "the admin user grants credits", granted);
  console.log("ok nats: the admin user may grant");
} finally {
  await admin.close();
}
