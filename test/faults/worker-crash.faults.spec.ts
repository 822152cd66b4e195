import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstreamManager } from "@nats-io/jetstream";
import { call, rank } from "../support/http.ts";
import { accountInStream, billedAnswer, billingDiscrepancies, deadServices, eventually, projectionAgrees, settledBalance } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import type { ServiceProcess } from "../support/service-process.ts";
import { startStack, type Stack } from "../support/stack.ts";

// A worker killed (SIGKILL) while it holds jobs. The first scorer and the first panel-voter
// run a sim model that never answers (SIM_LATENCY_MS far beyond the test), so the kill is
// certain to land mid-evaluation / mid-vote; a second, healthy replica is running when it
// lands. JetStream redelivers the jobs after the ack wait (1.5 s here, 30 s in production),
// the request completes, and it is billed exactly once: in the answer, in the ledger's
// balance, in the LEDGER stream and in the Postgres projection.

const ACK_WAIT_MS = 1_500;
const NEVER = "600000";
const audience = { name: "Night-shift nurses", demographics: {} };

describe("a worker dies mid-job", () => {
  let stack: Stack;
  const killed: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({
      logLevel: "warn",
      refinementEnv: false,
      scorerEnv: { SIM_LATENCY_MS: NEVER, SCORER_ACK_WAIT_MS: String(ACK_WAIT_MS) },
      voterEnv: { SIM_LATENCY_MS: NEVER, VOTER_ACK_WAIT_MS: String(ACK_WAIT_MS) },
      gatewayEnv: { RANK_TIMEOUT_MS: "30000", PAIRWISE_TIMEOUT_MS: "30000" },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  const consumer = async (service: string) => (await jetstreamManager(stack.nc)).consumers.info(stack.topo.streams.jobs.name, stack.topo.consumer(service));
  /** Sum of a counter on a replica's /metrics, for the series matching `filter`. */
  const counter = async (baseUrl: string, name: string, filter: RegExp) => {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    return text
      .split("\n")
      .filter((l) => l.startsWith(`${name}{`) && filter.test(l))
      .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
  };
  const billedOnce = async (accountId: string, granted: number, res: Parameters<typeof billedAnswer>[0]) => {
    const balance = await settledBalance(stack, accountId);
    const stream = await accountInStream(stack, accountId);
    expect(billingDiscrepancies(stream, balance, [billedAnswer(res)])).toEqual([]);
    expect(stream.granted).toBe(granted);
    expect([...stream.reservations.values()].map((f) => f.settled)).toEqual([[billedAnswer(res).creditsUsed]]);
    await projectionAgrees(stack, accountId, stream, balance);
    return balance;
  };

  it("scorer: the evaluations are redelivered to the other scorer, the request completes, billed once", async () => {
    const account = await stack.createAccountDirect({ credits: 10 });
    const first = stack.processes.find((p) => p.name === "scorer")!;
    const started = Date.now();
    // Three jobs: an image-only asset, and an asset with copy (full ad package + image-only ablation).
    const pending = rank(stack.baseUrl, account.key, {
      assets: [
        { url: creative(8), id: "plain" },
        { url: creative(9), id: "with-copy", copy_context: { adHeadline: "Sleep better between shifts", adBody: "Blackout curtains that fit any window." } },
      ],
      audience,
      refine_close_pairs: false,
    });
    await eventually(async () => ((await consumer("scorer")).num_ack_pending >= 3 ? true : undefined), 10_000, "the first scorer taking the three jobs");
    const second = await stack.startReplica("scorer", { SIM_LATENCY_MS: "0" });
    // The first scorer still holds all three: its model never answers.
    expect((await consumer("scorer")).num_ack_pending).toBe(3);
    const killedAt = Date.now();
    first.child.kill("SIGKILL");
    killed.push(first);

    const res = await pending;
    const afterKill = Date.now() - killedAt;
    expect(res.status, stack.output().slice(-2000)).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.ranked.map((r: { asset_id: string }) => r.asset_id).sort()).toEqual(["plain", "with-copy"]);
    expect(res.body.ranked.find((r: { asset_id: string }) => r.asset_id === "with-copy").image_only_score).toEqual(expect.any(Number));
    expect(res.body.summary).toMatchObject({ assets_ranked: 2, assets_failed: 0, scoring_evaluations: 3, credits_used: 3, credits_remaining: 7 });
    // Redelivery waits for the ack wait, then the healthy scorer answers quickly.
    expect(afterKill).toBeLessThan(ACK_WAIT_MS + 5_000);
    // The second scorer evaluated each job exactly once.
    expect(await counter(second.baseUrl, "adrank_evaluations_total", /outcome="ok"/)).toBe(3);
    expect(await billedOnce(account.accountId, 10, res)).toMatchObject({ available: 7, reserved: 0 });
    await eventually(async () => ((await consumer("scorer")).num_ack_pending === 0 ? true : undefined), 5_000, "no job left in hand");
    expect(deadServices(stack, killed)).toEqual([]);
    console.log(`scorer killed holding 3 jobs: answered 200 ${afterKill} ms after the kill (${Date.now() - started} ms in all; ack wait ${ACK_WAIT_MS} ms), 3 evaluations by the second scorer, billed 3 once (stream, balance, projection agree)`);
  }, 60_000);

  it("panel-voter: the votes are redelivered to the other voter, both panels complete, billed once", async () => {
    const account = await stack.createAccountDirect({ credits: 5 });
    const first = stack.processes.find((p) => p.name === "panel-voter")!;
    const started = Date.now();
    const pending = call(stack.baseUrl, "POST", "/api/v1/pairwise", {
      key: account.key,
      json: {
        pairs: [
          { pair_id: "p1", a: { id: "a1", image_url: creative(11) }, b: { id: "b1", image_url: creative(12) } },
          { pair_id: "p2", a: { id: "a2", image_url: creative(13) }, b: { id: "b2", image_url: creative(14) } },
        ],
        audience,
      },
    });
    await eventually(async () => ((await consumer("panel-voter")).num_ack_pending >= 10 ? true : undefined), 10_000, "the first voter taking the ten votes");
    const second = await stack.startReplica("panel-voter", { SIM_LATENCY_MS: "0" });
    expect((await consumer("panel-voter")).num_ack_pending).toBe(10);
    const killedAt = Date.now();
    first.child.kill("SIGKILL");
    killed.push(first);

    const res = await pending;
    const afterKill = Date.now() - killedAt;
    expect(res.status, stack.output().slice(-2000)).toBe(200);
    for (const pair of res.body.pairs) {
      expect(pair.status, JSON.stringify(pair)).toBe("done");
      expect(pair.votes).toHaveLength(5);
      expect(pair.votes.map((v: { order: string }) => v.order).sort()).toEqual(["ab", "ab", "ab", "ba", "ba"]);
      for (const v of pair.votes) expect([pair.aId, pair.bId]).toContain(v.winnerId);
    }
    expect(res.body.summary).toMatchObject({ pairs_completed: 2, pairs_failed: 0, valid_votes: 10, pairwise_evaluations: 2, credits_used: 2, credits_remaining: 3 });
    expect(afterKill).toBeLessThan(ACK_WAIT_MS + 5_000);
    expect(await counter(second.baseUrl, "adrank_votes_total", /outcome="valid"/)).toBe(10);
    expect(await billedOnce(account.accountId, 5, res)).toMatchObject({ available: 3, reserved: 0 });
    expect(deadServices(stack, killed)).toEqual([]);
    console.log(`panel-voter killed holding 10 votes: answered 200 ${afterKill} ms after the kill (${Date.now() - started} ms in all), 10 votes by the second voter, 2 panels done, billed 2 once`);
  }, 60_000);
});
