import { figuresOf, shareEstimate, type ScoredOutcome } from "@adrank/eval-stats";
import type { EvalDataset, OutcomeRow } from "./dataset.ts";
import type { EvalFailure, EvalGroup, EvalPoint, EvalResult, LabelledPairResult, ModelsUsed, PairsSection } from "./eval-result.ts";
import type { FinishedPanels, FinishedRequest, RankingScores } from "./finished-request.ts";
import type { EvalPlan } from "./plan.ts";

export interface RunFacts {
  base_url: string;
  refine: boolean;
  metric: string | null;
  started_at: string;
  finished_at: string;
}

/** Every distinct set of models the responses named, in the order first seen. */
function modelsOf(finished: readonly FinishedRequest[]): ModelsUsed[] {
  const seen = new Map<string, ModelsUsed>();
  for (const f of finished) if (f.models) seen.set(JSON.stringify(f.models), f.models);
  return [...seen.values()];
}

const audienceText = (audience: { name: string } | { id: string }) => ("id" in audience ? audience.id : audience.name);

const pointsOf = (points: readonly EvalPoint[], stratum: string): ScoredOutcome[] => points.map((p) => ({ stratum, score: p.score, rawScore: p.score_before_refine, outcome: p.outcome }));

/**
 * Every answered ranking of group g with the group's rows it scored: its own rank requests, and
 * its audience's ranking in each side-by-side request it was part of.
 */
interface GroupRanking {
  rows: OutcomeRow[];
  request_id: string;
  ranking: RankingScores;
}

function rankingsOf(plan: EvalPlan, finished: ReadonlyMap<number, FinishedRequest>, g: number): GroupRanking[] {
  return plan.requests.flatMap((request): GroupRanking[] => {
    const answer = finished.get(request.index);
    if (!answer) return [];
    if (request.kind === "rank" && request.group === g && answer.kind === "rank") return [{ rows: request.rows, request_id: answer.request_id, ranking: answer }];
    if (request.kind !== "rank-audiences" || answer.kind !== "rank-audiences") return [];
    const j = request.audiences.findIndex((a) => a.group === g);
    const ranking = answer.by_audience.find((a) => a.group === g);
    return j < 0 || !ranking ? [] : [{ rows: request.audiences[j]!.rows, request_id: answer.request_id, ranking }];
  });
}

function outcomesSection(plan: EvalPlan, finished: ReadonlyMap<number, FinishedRequest>, refine: boolean): NonNullable<EvalResult["outcomes"]> {
  const groups: EvalGroup[] = [];
  const failed: EvalFailure[] = [];
  const pooled: ScoredOutcome[] = [];
  plan.groups.forEach((group, g) => {
    const points: Array<{ line: number; point: EvalPoint }> = [];
    const requestIds: string[] = [];
    for (const { rows, request_id, ranking } of rankingsOf(plan, finished, g)) {
      requestIds.push(request_id);
      const scores = new Map(ranking.scores.map((s) => [s.id, s]));
      const errors = new Map(ranking.errors.map((e) => [e.id, e.error]));
      for (const row of rows) {
        const s = scores.get(row.id);
        if (s) points.push({ line: row.line, point: { id: row.id, image: row.image, outcome: row.outcome, score: s.score, score_before_refine: s.score_before_refine, request_id } });
        // A creative the API could not score is a failure, never a point: its outcome has no score to meet.
        else failed.push({ id: row.id, image: row.image, error: errors.get(row.id) ?? "the response left it out" });
      }
    }
    // In file order, whichever of the group's rankings scored them.
    const inOrder = points.sort((a, b) => a.line - b.line).map((p) => p.point);
    const scored = pointsOf(inOrder, group.label);
    pooled.push(...scored);
    groups.push({ campaign: group.key.campaign, audience: audienceText(group.key.audience), goal: group.key.goal, label: group.label, request_ids: requestIds, points: inOrder, figures: figuresOf(scored) });
  });
  return { refine, groups, pooled: figuresOf(pooled), failed };
}

function pairsSection(plan: EvalPlan, finished: ReadonlyMap<number, FinishedRequest>): PairsSection {
  const items: LabelledPairResult[] = [];
  const groups: PairsSection["groups"] = [];
  plan.groups.forEach((group, g) => {
    let n = 0;
    const agrees: boolean[] = [];
    for (const request of plan.requests) {
      if (request.kind !== "pairwise" || request.group !== g) continue;
      const answer = finished.get(request.index) as FinishedPanels | undefined;
      if (!answer) continue;
      const byLine = new Map(answer.pairs.map((p) => [p.line, p]));
      for (const row of request.rows) {
        const pair = byLine.get(row.line);
        n++;
        const winner = pair?.winner ?? null;
        // Only a completed panel has a winner to hold against the label; the rest are counted, not scored.
        if (winner !== null) agrees.push(winner === row.winner);
        items.push({ image_a: row.a.image, image_b: row.b.image, label: row.winner, panel_winner: winner, votes_a: pair?.votes_a ?? 0, votes_b: pair?.votes_b ?? 0, request_id: answer.request_id, group: group.label });
      }
    }
    groups.push({ label: group.label, n, completed: agrees.length, agreement: shareEstimate(agrees) });
  });
  const all = items.filter((i) => i.panel_winner !== null).map((i) => i.panel_winner === i.label);
  return { n: items.length, completed: all.length, agreement: shareEstimate(all), groups, items };
}

/**
 * The EvalResult of a run from its answered requests (those of this run and of the run it
 * resumed): figures per group and pooled, failures apart, credits summed from the responses.
 */
export function evalResultOf(dataset: EvalDataset, plan: EvalPlan, finished: readonly FinishedRequest[], facts: RunFacts): EvalResult {
  const byIndex = new Map(finished.map((f) => [f.index, f]));
  const models = modelsOf(finished);
  return {
    version: 1,
    dataset: { path: dataset.path, sha256: dataset.sha256, format: dataset.format, rows: dataset.rows.length, metric: dataset.kind === "outcomes" ? facts.metric : null },
    api: { base_url: facts.base_url, models, simulated: models.some((m) => m?.simulated === true) },
    started_at: facts.started_at,
    finished_at: facts.finished_at,
    credits_used: finished.reduce((sum, f) => sum + f.credits_used, 0),
    requests: plan.requests.length,
    outcomes: dataset.kind === "outcomes" ? outcomesSection(plan, byIndex, facts.refine) : null,
    pairs: dataset.kind === "pairs" ? pairsSection(plan, byIndex) : null,
  };
}
