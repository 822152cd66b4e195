// Compares the Postgres mirror with the LEDGER stream of this namespace and prints every difference:
//   node services/ledger/src/admin/reconcile-cli.ts [--account <id>] [--grace-seconds <n>] [--json]
// It also compares what the stored answers of the last --answers-hours (default 24) told their
// callers about credits with what the stream charged (ANSWER lines).
// Exit code 0: the same history, nothing differs, and any lag is younger than the grace period
// (default 30 s); 1: a different history, a difference, an answer that disagrees, or a lag past the grace period;
// 2: usage or connection error.
import { parseArgs } from "node:util";
import { DEFAULT_ANSWERS_SINCE_MS, DEFAULT_BEHIND_GRACE_MS, reconcile, reconcileFailed, type ReconcileReport } from "../reconcile.ts";
import { openAdminConnections } from "./connections.ts";

const USAGE = "usage: reconcile-cli [--account <id>] [--grace-seconds <n>] [--answers-hours <n>] [--json]";

function print(report: ReconcileReport): void {
  const m = report.mirror;
  console.log(`stream ${report.stream}: created ${report.streamState.created}, last sequence ${report.streamState.lastSeq}, ${report.streamState.messages} events`);
  console.log(m ? `mirror: follows the stream created ${m.streamCreated}, projected up to ${m.lastSeq}, ${m.status}` : "mirror: none yet (no ledger replica has projected this stream)");
  if (report.identityProblem) console.log(`HISTORY ${report.identityProblem}`);
  for (const d of report.differences) console.log(`DIFF ${d.accountId} ${d.field}: stream=${JSON.stringify(d.stream)} projection=${JSON.stringify(d.projection)}`);
  for (const b of report.behind) {
    const age = `${(b.oldestMissingAgeMs / 1000).toFixed(1)} s`;
    console.log(`BEHIND ${b.accountId}: stream at ${b.streamSeq}, projection at ${b.projectedSeq}, ${b.missingEvents} event${b.missingEvents === 1 ? "" : "s"} missing, oldest ${age} old${b.overdue ? ` (over the ${report.graceMs / 1000} s grace period)` : " (within the grace period)"}`);
  }
  for (const d of report.answers.differences) console.log(`ANSWER ${d.accountId} ${d.requestId}: told ${d.told}, the stream has ${d.charged}`);
  const overdue = report.behind.filter((b) => b.overdue).length;
  console.log(`${report.accountsChecked} accounts checked, ${report.differences.length} differences, ${report.behind.length} behind (${overdue} past the grace period)${report.identityProblem ? ", different history" : ""}`);
  console.log(`${report.answers.checked} stored answers checked, ${report.answers.differences.length} disagree with the stream, ${report.answers.pending} pending within the grace period`);
}

async function main(): Promise<number> {
  let values: { account?: string; json?: boolean; "grace-seconds"?: string; "answers-hours"?: string };
  try {
    ({ values } = parseArgs({ options: { account: { type: "string" }, json: { type: "boolean" }, "grace-seconds": { type: "string" }, "answers-hours": { type: "string" } }, strict: true }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const grace = values["grace-seconds"] === undefined ? DEFAULT_BEHIND_GRACE_MS / 1000 : Number(values["grace-seconds"]);
  if (!Number.isFinite(grace) || grace < 0) {
    console.error(`--grace-seconds must be a number of seconds >= 0\n${USAGE}`);
    return 2;
  }
  const answersHours = values["answers-hours"] === undefined ? DEFAULT_ANSWERS_SINCE_MS / 3_600_000 : Number(values["answers-hours"]);
  if (!Number.isFinite(answersHours) || answersHours < 0) {
    console.error(`--answers-hours must be a number of hours >= 0\n${USAGE}`);
    return 2;
  }
  const opened = await openAdminConnections("adrank-reconcile");
  if ("error" in opened) {
    console.error(opened.error);
    return 2;
  }
  try {
    const report = await reconcile({ ...opened.deps, graceMs: grace * 1000, answersSinceMs: answersHours * 3_600_000, ...(values.account ? { accountId: values.account } : {}) });
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else print(report);
    return reconcileFailed(report) ? 1 : 0;
  } catch (err) {
    console.error(`reconcile failed: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await opened.close();
  }
}

process.exitCode = await main();
