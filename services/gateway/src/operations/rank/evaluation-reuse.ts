import type { Evaluation, ImageRef } from "@adrank/bus-contracts";
import type { ScoreLayer } from "@adrank/contracts";
import { layersFor, type AssetPlan, type RankPlan } from "@adrank/rank-assembly";
import type { KeyedJob } from "./kept-evaluation-key.ts";
import type { ImageIntake } from "../shared/prepare-image.ts";
import type { KeptEvaluations } from "./kept-evaluations.ts";

// Evaluations reused across requests (issue 36), per request. Images sent in the body (data
// URIs) are known before anything is reserved: their kept evaluations are found while the
// request is prepared, so the reservation leaves them out. An https:// image is known only once
// fetched: its evaluations are reserved and looked up in the run, and a reused one is released
// at settlement (settled units count only evaluations made).

/** What a score job asks of one layer of an asset: the part of the job its kept evaluation is filed under. */
export function askedOf(asset: Pick<AssetPlan, "copy" | "persona">, image: ImageRef, layer: ScoreLayer): KeyedJob {
  return { layer, image, copy: layer === "image-only" ? null : asset.copy, persona: asset.persona };
}

/** What a request with reuse_evaluations found while it was prepared, for one ranking (one audience). */
export interface PlannedReuse {
  /** The scorers' method key when the request was prepared; null when none answered (the run asks again). */
  methodKey: string | null;
  /** Kept evaluations found, by asset index and layer. */
  found: ReadonlyMap<number, ReadonlyMap<ScoreLayer, Evaluation>>;
  /** Assets looked up already: evaluations not found for them are reserved, and not looked up again. */
  lookedUp: ReadonlySet<number>;
}

/** How many evaluations a planned reuse leaves out of the reservation. */
export function foundCount(reuse: PlannedReuse | null): number {
  let n = 0;
  for (const layers of reuse?.found.values() ?? []) n += layers.size;
  return n;
}

const isDataUri = (url: string) => /^data:/i.test(url.trim());

/**
 * Finds the kept evaluations of every ranking's assets whose image is in the body, for
 * `accountId`, within the account's quota of such early look-ups (EARLY_LOOKUPS_PER_MINUTE). Each image is taken in once, whatever the number of rankings (the intake caches
 * it for the run, which takes it in again). An image that fails intake is left to the run, which
 * reports it; a store that does not answer finds nothing.
 */
export async function planReuse(kept: KeptEvaluations, intake: ImageIntake, accountId: string, plans: readonly RankPlan[]): Promise<PlannedReuse[]> {
  const methodKey = await kept.currentMethodKey();
  const none = (): PlannedReuse => ({ methodKey, found: new Map(), lookedUp: new Set() });
  // Over the account's quota of decoding before the ledger has admitted anything: looked up in the run instead.
  if (methodKey === null || plans.length === 0 || !kept.mayLookUpEarly(accountId)) return plans.map(none);
  const images = new Map<number, ImageRef & { hasVisualContent: boolean }>();
  await Promise.all(
    plans[0]!.assets.map(async (asset) => {
      if (!isDataUri(asset.url)) return;
      const taken = await intake.intake(asset.url).catch(() => null);
      if (!taken?.ok) return;
      const { ref, mime, width, height, hasVisualContent } = taken.image;
      images.set(asset.index, { ref, mime, width, height, hasVisualContent });
    }),
  );
  return Promise.all(
    plans.map(async (plan): Promise<PlannedReuse> => {
      const asked = plan.assets.flatMap((asset) => {
        const image = images.get(asset.index);
        if (!image) return [];
        const { hasVisualContent, ...ref } = image;
        return layersFor(asset, { hasVisualContent }).map((layer) => ({ index: asset.index, job: askedOf(asset, ref, layer) }));
      });
      const evaluations = await kept.find(accountId, methodKey, asked.map((a) => a.job));
      const found = new Map<number, Map<ScoreLayer, Evaluation>>();
      asked.forEach(({ index, job }, i) => {
        const evaluation = evaluations[i];
        if (!evaluation) return;
        const layers = found.get(index) ?? new Map<ScoreLayer, Evaluation>();
        found.set(index, layers.set(job.layer, evaluation));
      });
      return { methodKey, found, lookedUp: new Set(images.keys()) };
    }),
  );
}

/** What one asset's evaluation needs of reuse: kept evaluations to use instead of jobs, and where to keep new ones. */
export interface AssetKeeping {
  /** For each job, a kept evaluation this request may use instead (null: publish the job). */
  reusable(assetIndex: number, jobs: readonly KeyedJob[]): Promise<Array<Evaluation | null>>;
  /** A job's evaluation came back ok: keep it for the account (every request keeps, whatever it asked). */
  keep(job: KeyedJob, evaluation: Evaluation): void;
}

/**
 * One ranking's keeping: `planned` is null when the request did not ask for reuse (it still
 * keeps what it gets). Assets looked up while preparing use what was found then, so the run
 * never makes an evaluation that was left out of the reservation.
 */
export function assetKeeping(kept: KeptEvaluations, accountId: string, planned: PlannedReuse | null): AssetKeeping {
  return {
    async reusable(assetIndex, jobs) {
      if (planned === null) return jobs.map(() => null);
      if (planned.lookedUp.has(assetIndex)) {
        const found = planned.found.get(assetIndex);
        return jobs.map((job) => found?.get(job.layer) ?? null);
      }
      const methodKey = planned.methodKey ?? (await kept.currentMethodKey());
      if (methodKey === null) return jobs.map(() => null);
      return kept.find(accountId, methodKey, jobs);
    },
    keep: (job, evaluation) => kept.keep(accountId, job, evaluation),
  };
}

/**
 * What a request reserves: its most evaluations less those found kept while it was prepared,
 * and at least one, since the ledger reserves no less (a request whose every evaluation is
 * reused holds one unit until it settles, and is then charged 0).
 */
export function reservedUnits(maxEvaluations: number, reuses: ReadonlyArray<PlannedReuse | null>): number {
  return Math.max(1, maxEvaluations - reuses.reduce((n, r) => n + foundCount(r), 0));
}
