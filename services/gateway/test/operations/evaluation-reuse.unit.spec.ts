import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Evaluation } from "@adrank/bus-contracts";
import type { KeptEvaluation, KeptEvaluationQuery } from "@adrank/db/repositories";
import { planRank } from "@adrank/rank-assembly";
import { keptEvaluationKey } from "../../src/operations/rank/kept-evaluation-key.ts";
import { askedOf, assetKeeping, planReuse, reservedUnits } from "../../src/operations/rank/evaluation-reuse.ts";
import { createKeptEvaluations, EARLY_LOOKUPS_PER_MINUTE, METHOD_KEY_TTL_MS } from "../../src/operations/rank/kept-evaluations.ts";
import type { ImageIntake } from "../../src/operations/shared/prepare-image.ts";
import { evaluationFixture } from "@adrank/bus-contracts/testing";

// Evaluations reused across requests (issue 36), in the gateway: kept for their account under
// their scorer's method key, found only under the key the scorers answer now, and found for
// images in the body before anything is reserved.

const METHOD = "0123456789abcdef";
const OTHER_METHOD = "fedcba9876543210";

/** A scorer's evaluation, kept under `methodKey`. */
function evaluation(score: number, methodKey = METHOD): Evaluation {
  return { ...evaluationFixture(score), methodKey };
}

/** The repository in memory, with what each call asked. */
function memoryRepo() {
  const rows = new Map<string, KeptEvaluation>();
  const id = (namespace: string, accountId: string, key: string) => `${namespace}|${accountId}|${key}`;
  const calls = { keepMany: [] as KeptEvaluation[][], find: [] as KeptEvaluationQuery[] };
  let failing = false;
  return {
    rows,
    calls,
    fail: (on: boolean) => (failing = on),
    async keepMany(batch: readonly KeptEvaluation[]) {
      calls.keepMany.push([...batch]);
      for (const r of batch) rows.set(id(r.namespace, r.accountId, r.key), r);
    },
    async find(q: KeptEvaluationQuery) {
      calls.find.push(q);
      if (failing) throw new Error("database unavailable");
      const found = new Map<string, unknown>();
      for (const key of q.keys) {
        const r = rows.get(id(q.namespace, q.accountId, key));
        if (r && r.methodKey === q.methodKey) found.set(key, JSON.parse(JSON.stringify(r.evaluation)));
      }
      return found;
    },
    async deleteExpired() {
      return 0;
    },
  };
}

const log = { info: () => {}, warn: () => {} };
const tick = () => new Promise((r) => setTimeout(r, 0));

function store(over: { askMethodKey?: () => Promise<string | null>; now?: () => number } = {}) {
  const repo = memoryRepo();
  const kept = createKeptEvaluations({ repo, namespace: "ns", ttlHours: 168, askMethodKey: over.askMethodKey ?? (async () => METHOD), log, ...(over.now ? { now: over.now } : {}) });
  return { repo, kept };
}

const plan = planRank(
  {
    assets: [{ url: "data:image/png;base64,AAAA" }, { url: "https://cdn.example/b.png" }, { url: "data:image/png;base64,BBBB", copy_context: { adHeadline: "Run" } }, { url: "data:image/png;base64,CCCC" }],
    goal: "click-through-rate",
    asset_type: "Advertisement",
    refine_close_pairs: true,
  },
  { name: "Runners", demographics: { ageRange: "25-34" } },
);
const refOf = (url: string) => ({ ref: createHash("sha256").update(url).digest("hex"), mime: "image/jpeg" as const, width: 10, height: 10 });
/** An intake that knows data URIs only, as the body's images; the https:// one would need a fetch. */
const intake: ImageIntake & { taken: string[] } = {
  taken: [],
  async intake(url) {
    intake.taken.push(url);
    if (!url.startsWith("data:")) throw new Error("the test fetches nothing");
    return { ok: true, image: { ...refOf(url), bytes: new Uint8Array(), hasVisualContent: true } };
  },
};

describe("kept evaluations in the gateway", () => {
  it("keeps every successful evaluation for its account under its scorer's method key, in groups", async () => {
    const { repo, kept } = store();
    const job = askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only");
    kept.keep("acct_a", job, evaluation(3));
    kept.keep("acct_a", askedOf(plan.assets[3]!, refOf(plan.assets[3]!.url), "image-only"), evaluation(2));
    const { methodKey: _key, ...older } = evaluation(3);
    kept.keep("acct_a", job, older); // an older scorer's: nothing to file it under
    await kept.close();
    expect(repo.calls.keepMany.flat()).toHaveLength(2);
    expect(repo.calls.keepMany.length).toBeLessThanOrEqual(2);
    expect([...repo.rows.values()][0]).toMatchObject({ namespace: "ns", accountId: "acct_a", key: keptEvaluationKey(job, METHOD), methodKey: METHOD });
  });

  it("finds an account's own evaluations under the current method key only", async () => {
    const { kept } = store();
    const job = askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only");
    kept.keep("acct_a", job, evaluation(3));
    await kept.close();
    expect(await kept.find("acct_a", METHOD, [job])).toEqual([evaluation(3)]);
    expect(await kept.find("acct_b", METHOD, [job])).toEqual([null]);
    expect(await kept.find("acct_a", OTHER_METHOD, [job])).toEqual([null]);
  });

  it("finds nothing when the store fails: the assets are scored as usual", async () => {
    const { repo, kept } = store();
    const job = askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only");
    kept.keep("acct_a", job, evaluation(3));
    await kept.close();
    repo.fail(true);
    expect(await kept.find("acct_a", METHOD, [job])).toEqual([null]);
  });

  it("asks the scorers for their method key once per interval, whoever asks", async () => {
    let asked = 0;
    let clock = 1_000;
    const { kept } = store({ askMethodKey: async () => (asked++, METHOD), now: () => clock });
    expect(await Promise.all([kept.currentMethodKey(), kept.currentMethodKey()])).toEqual([METHOD, METHOD]);
    clock += METHOD_KEY_TTL_MS - 1;
    await kept.currentMethodKey();
    expect(asked).toBe(1);
    clock += 1;
    await kept.currentMethodKey();
    expect(asked).toBe(2);
  });
});

describe("reuse planned while a request is prepared", () => {
  it("finds the kept evaluations of the images in the body, leaves them out of the reservation, and looks up the rest in the run", async () => {
    const { repo, kept } = store();
    // Kept earlier: asset 0 (image-only) and asset 2's full ad package, not its ablation.
    kept.keep("acct_a", askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only"), evaluation(3));
    kept.keep("acct_a", askedOf(plan.assets[2]!, refOf(plan.assets[2]!.url), "full-ad-package"), evaluation(4));
    // Another account's evaluation of asset 3 is never found.
    kept.keep("acct_b", askedOf(plan.assets[3]!, refOf(plan.assets[3]!.url), "image-only"), evaluation(2));
    await kept.close();
    intake.taken.length = 0;

    const [reuse] = await planReuse(kept, intake, "acct_a", [plan]);
    expect(intake.taken.every((u) => u.startsWith("data:"))).toBe(true);
    expect(reuse!.methodKey).toBe(METHOD);
    expect([...reuse!.lookedUp].sort()).toEqual([0, 2, 3]);
    expect(reuse!.found.get(0)?.get("image-only")?.score).toBe(3);
    expect([...(reuse!.found.get(2)?.keys() ?? [])]).toEqual(["full-ad-package"]);
    expect(reuse!.found.has(3)).toBe(false);
    // 5 at most (asset 2 has copy), 2 found: 3 reserved.
    expect(plan.maxEvaluations).toBe(5);
    expect(reservedUnits(plan.maxEvaluations, [reuse!])).toBe(3);

    const keeping = assetKeeping(kept, "acct_a", reuse!);
    const lookups = repo.calls.find.length;
    // Looked up already: answered from the plan, without the store.
    const asset2 = plan.assets[2]!;
    expect((await keeping.reusable(2, [askedOf(asset2, refOf(asset2.url), "full-ad-package"), askedOf(asset2, refOf(asset2.url), "image-only")])).map((e) => e?.score ?? null)).toEqual([4, null]);
    expect(repo.calls.find.length).toBe(lookups);
    // The https:// image is looked up once the run knows it.
    const asset1 = plan.assets[1]!;
    expect(await keeping.reusable(1, [askedOf(asset1, refOf("https://cdn.example/b.png"), "image-only")])).toEqual([null]);
    expect(repo.calls.find.length).toBe(lookups + 1);
  });

  it("reserves at least one unit, and plans nothing without a scorer's method key or without the flag", async () => {
    expect(reservedUnits(1, [{ methodKey: METHOD, found: new Map([[0, new Map([["image-only", evaluation(3)]])]]), lookedUp: new Set([0]) }])).toBe(1);
    expect(reservedUnits(4, [null])).toBe(4);
    const { kept } = store({ askMethodKey: async () => null });
    const [reuse] = await planReuse(kept, intake, "acct_a", [plan]);
    expect(reuse).toEqual({ methodKey: null, found: new Map(), lookedUp: new Set() });
    const job = askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only");
    expect(await assetKeeping(kept, "acct_a", reuse!).reusable(0, [job])).toEqual([null]);
    expect(await assetKeeping(kept, "acct_a", null).reusable(0, [job])).toEqual([null]);
    await tick();
  });
});

describe("decoding before the reservation has a quota per account", () => {
  it("decodes an account's images before its reservation at most EARLY_LOOKUPS_PER_MINUTE times a minute, then leaves the look-up to the run", async () => {
    let clock = 60_000;
    const { kept } = store({ now: () => clock });
    for (let i = 0; i < EARLY_LOOKUPS_PER_MINUTE; i++) expect(kept.mayLookUpEarly("acct_a")).toBe(true);
    intake.taken.length = 0;
    const [over] = await planReuse(kept, intake, "acct_a", [plan]);
    // Nothing decoded, nothing found early: everything is reserved and looked up in the run.
    expect(intake.taken).toEqual([]);
    expect(over).toEqual({ methodKey: METHOD, found: new Map(), lookedUp: new Set() });
    expect(reservedUnits(plan.maxEvaluations, [over!])).toBe(plan.maxEvaluations);
    // Another account has a quota of its own, and the next minute a new one.
    const [other] = await planReuse(kept, intake, "acct_b", [plan]);
    expect([...other!.lookedUp].sort()).toEqual([0, 2, 3]);
    clock += 60_000;
    intake.taken.length = 0;
    await planReuse(kept, intake, "acct_a", [plan]);
    expect(intake.taken.length).toBeGreaterThan(0);
    await kept.close();
  });
});

describe("the scorers' method key after a change of method", () => {
  it("is asked again as soon as an evaluation comes back under another key", async () => {
    let answer = METHOD;
    let asked = 0;
    const { kept } = store({ askMethodKey: async () => (asked++, answer), now: () => 1_000 });
    expect(await kept.currentMethodKey()).toBe(METHOD);
    const job = askedOf(plan.assets[0]!, refOf(plan.assets[0]!.url), "image-only");
    kept.keep("acct_a", job, evaluation(3, METHOD));
    expect(await kept.currentMethodKey()).toBe(METHOD);
    answer = OTHER_METHOD;
    kept.keep("acct_a", job, evaluation(3, OTHER_METHOD));
    expect(await kept.currentMethodKey()).toBe(OTHER_METHOD);
    expect(asked).toBe(2);
    await kept.close();
  });
});
