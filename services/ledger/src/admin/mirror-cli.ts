// The operator's command for a halted ledger mirror (docs/ledger-mirror.md):
//   node services/ledger/src/admin/mirror-cli.ts status
//   node services/ledger/src/admin/mirror-cli.ts rebuild [--force]               keep the stream, rebuild the mirror from it
//   node services/ledger/src/admin/mirror-cli.ts reseed [--discard-stream-events] keep the mirror, write its events back into the stream
// Reads NATS_URL, DATABASE_URL, ADRANK_NAMESPACE and LEDGER_JETSTREAM_REPLICAS like the ledger.
// Exit code 0: done (status: stream and mirror agree); 1: refused, or status found a problem; 2: usage or connection error.
import { parseArgs } from "node:util";
import { MirrorCommandRefused, mirrorStatus, rebuildMirror, reseedStream, type MirrorDeps } from "../mirror/operations.ts";
import { openAdminConnections } from "./connections.ts";

const USAGE = "usage: mirror-cli status | rebuild [--force] | reseed [--discard-stream-events]";

async function status(deps: MirrorDeps): Promise<number> {
  const s = await mirrorStatus(deps);
  console.log(s.streamExists ? `stream ${s.stream}: created ${s.streamCreated}, last sequence ${s.streamLastSeq}, ${s.streamMessages} events` : `stream ${s.stream}: does not exist`);
  if (!s.mirror) {
    console.log("mirror: none yet (the first ledger replica to start records the stream it follows)");
    return 0;
  }
  console.log(`mirror: follows the stream created ${s.mirror.streamCreated.toISOString()}, projected up to ${s.mirror.lastSeq}, ${s.mirror.status}`);
  const problem = s.mirror.problem ?? s.unrecordedProblem;
  if (!problem) return 0;
  console.log(`problem: ${problem}`);
  console.log(
    s.streamMessages === 0
      ? "The stream is empty: `reseed` writes the mirror's events back into it (the history is kept); `rebuild` would start the mirror over from an empty stream."
      : "`reseed` keeps the mirror's history (the stream must hold only a prefix of it, or pass --discard-stream-events); `rebuild` keeps the stream's history and archives the mirror's rows.",
  );
  return 1;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { force: { type: "boolean" }, "discard-stream-events": { type: "boolean" } }, strict: true });
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (!command || rest.length > 0 || !["status", "rebuild", "reseed"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const replicas = Number(process.env.LEDGER_JETSTREAM_REPLICAS ?? "1");
  if (!Number.isSafeInteger(replicas) || replicas < 1 || replicas > 5) {
    console.error("LEDGER_JETSTREAM_REPLICAS must be a whole number from 1 to 5");
    return 2;
  }
  const opened = await openAdminConnections("adrank-ledger-mirror");
  if ("error" in opened) {
    console.error(opened.error);
    return 2;
  }
  const { deps } = opened;
  try {
    if (command === "status") return await status(deps);
    if (command === "rebuild") {
      const r = await rebuildMirror(deps, { force: parsed.values.force === true });
      console.log(`mirror rebuilt: ${r.archived} mirrored events moved to ledger_events_archive; the ledger replicas now project the stream created ${r.streamCreated} (${r.streamLastSeq} events) from its start`);
      return 0;
    }
    const r = await reseedStream(deps, { discardStreamEvents: parsed.values["discard-stream-events"] === true, replicas });
    console.log(`stream re-seeded: ${r.kept} events kept, ${r.appended} appended from the mirror, ${r.discarded} moved to ledger_events_archive; stream created ${r.streamCreated}, last sequence ${r.streamLastSeq}; billing resumes within seconds`);
    return 0;
  } catch (err) {
    if (err instanceof MirrorCommandRefused) {
      console.error(`refused: ${err.message}`);
      return 1;
    }
    console.error(`ledger-mirror ${command} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await opened.close();
  }
}

process.exitCode = await main();
