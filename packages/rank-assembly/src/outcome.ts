import type { Evaluation } from "@adrank/bus-contracts";
import type { ScoreLayer } from "@adrank/contracts";

/**
 * What came back for one evaluation: the scorer's result, or a sentence saying why not.
 * `reused` marks an evaluation kept from an earlier request of the account (issue 36): no
 * model was called for it, so it is neither billed nor counted in the request's model usage.
 */
export type EvaluationOutcome = { ok: true; evaluation: Evaluation; reused?: boolean } | { ok: false; error: string };

/**
 * What happened to one asset. `failed` covers everything before an evaluation could run
 * (intake refused the image, the deadline came first, the client left); `evaluated` holds the
 * primary evaluation of its layer and, for full-ad-package, the image-only ablation.
 */
export type AssetOutcome =
  | { kind: "failed"; error: string }
  | { kind: "evaluated"; layer: ScoreLayer; primary: EvaluationOutcome; ablation: EvaluationOutcome | null };
