import type { MethodReceipt, ModelReceipt } from "@adrank/contracts";
import { kendallTauB } from "./kendall-tau-b.ts";
import { spearmanRho } from "./spearman-rho.ts";

// The drift watch (an operator's daily ranking of one fixed batch): whether today's answer
// still says what an earlier answer to the same batch said. Providers change the model behind
// a name without notice; the receipt (issue 34) says when they reported a change, the scores
// say whether the ranking moved anyway.

/** One asset's place in a ranking. */
export interface AssetPlace {
  score: number;
  rank: number;
}

/** What the drift watch keeps of one ranking of its reference batch. */
export interface DriftRun {
  /** Hash of the batch's images and settings: runs of different batches are never compared. */
  batchHash: string;
  /** The answer's `summary.method`; null when the server sent none (older than issue 34). */
  receipt: MethodReceipt | null;
  /** By asset id. */
  scores: Readonly<Record<string, AssetPlace>>;
  /** Codes of the answer's `summary.warnings`. */
  warningCodes: readonly string[];
}

/** When the ranking counts as moved. */
export interface DriftThresholds {
  /** Spearman's rho of the two runs' scores below this warns. */
  minRho: number;
  /** A mean absolute score change (1..5 scale) above this warns. */
  maxMeanChange: number;
}

export const DEFAULT_DRIFT_THRESHOLDS: Readonly<DriftThresholds> = { minRho: 0.9, maxMeanChange: 0.15 };

/**
 * A reference set's mean anchor similarity may differ by this much between two runs before it
 * counts as a change: the same embedder can return vectors that differ in the last digits.
 */
export const SIMILARITY_TOLERANCE = 0.001;

export type ReceiptValue = string | number | null | readonly string[];

/** One field of the receipt that differs, e.g. `generators[openai:gpt-4o].versions`. */
export interface ReceiptDifference {
  field: string;
  before: ReceiptValue;
  after: ReceiptValue;
}

/** How one asset fared in both runs. */
export interface AssetChange {
  assetId: string;
  before: AssetPlace;
  after: AssetPlace;
  /** after.score - before.score. */
  scoreChange: number;
}

export type DriftWarningKind = "models_changed" | "ranking_moved";

/** Something an operator should look at, as one sentence. */
export interface DriftWarning {
  kind: DriftWarningKind;
  message: string;
}

/** Two runs of different batches: nothing is compared, the newer run starts a new baseline. */
export interface BatchChanged {
  compared: false;
  reason: "batch_changed";
  previousBatchHash: string;
  currentBatchHash: string;
}

export interface ComparedRuns {
  compared: true;
  /** Assets ranked in both runs: what the figures are computed over. */
  assets: number;
  /** Null when undefined: fewer than two assets in common, or every score tied in a run. */
  spearmanRho: number | null;
  kendallTauB: number | null;
  /** Mean of |after - before| over the assets in common; null when there are none. */
  meanAbsoluteChange: number | null;
  /** By asset id, in the current run's rank order. */
  changes: AssetChange[];
  /** Assets ranked in only one of the runs, sorted. */
  missingAssets: string[];
  receiptDifferences: ReceiptDifference[];
  warningCodesAdded: string[];
  warningCodesRemoved: string[];
  /** Empty when nothing moved. */
  warnings: DriftWarning[];
}

export type DriftComparison = BatchChanged | ComparedRuns;

const sortedDistinct = (values: readonly string[]): string[] => [...new Set(values)].sort();
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Receipt entries keyed by configured model; the k-th seat of one model pairs with the k-th. */
function byModel(receipts: readonly ModelReceipt[]): Map<string, ModelReceipt> {
  const seen = new Map<string, number>();
  const out = new Map<string, ModelReceipt>();
  for (const r of receipts) {
    const n = (seen.get(r.model) ?? 0) + 1;
    seen.set(r.model, n);
    out.set(n === 1 ? r.model : `${r.model}#${n}`, r);
  }
  return out;
}

function modelDifferences(list: "generators" | "voters", before: readonly ModelReceipt[], after: readonly ModelReceipt[]): ReceiptDifference[] {
  const was = byModel(before);
  const now = byModel(after);
  const out: ReceiptDifference[] = [];
  for (const key of sortedDistinct([...was.keys(), ...now.keys()])) {
    const a = was.get(key);
    const b = now.get(key);
    const field = `${list}[${key}]`;
    if (!a || !b) {
      out.push({ field, before: a ? "present" : "absent", after: b ? "present" : "absent" });
      continue;
    }
    const versionsBefore = sortedDistinct(a.versions);
    const versionsAfter = sortedDistinct(b.versions);
    if (!sameList(versionsBefore, versionsAfter)) out.push({ field: `${field}.versions`, before: versionsBefore, after: versionsAfter });
    if (a.temperature !== b.temperature) out.push({ field: `${field}.temperature`, before: a.temperature, after: b.temperature });
    if (a.thinking !== b.thinking) out.push({ field: `${field}.thinking`, before: a.thinking, after: b.thinking });
  }
  return out;
}

/**
 * Every field in which two receipts differ: method version, prompt template hashes, reference
 * sets (hash and mean similarity, by position), the similarity limit, the embedder, and each
 * generator's and voter's reported versions, temperature and thinking. Lists whose order
 * carries no meaning (prompt hashes, reported versions) are compared as sets. Empty when the
 * receipts say the same.
 */
export function receiptDifferences(before: MethodReceipt | null, after: MethodReceipt | null): ReceiptDifference[] {
  if (before === null || after === null) return before === after ? [] : [{ field: "method", before: before ? "present" : "absent", after: after ? "present" : "absent" }];
  const out: ReceiptDifference[] = [];
  if (before.version !== after.version) out.push({ field: "version", before: before.version, after: after.version });

  const promptsBefore = sortedDistinct(before.prompt_templates);
  const promptsAfter = sortedDistinct(after.prompt_templates);
  if (!sameList(promptsBefore, promptsAfter)) out.push({ field: "prompt_templates", before: promptsBefore, after: promptsAfter });

  if (before.reference_sets.length !== after.reference_sets.length) {
    out.push({ field: "reference_sets", before: before.reference_sets.map((s) => s.hash), after: after.reference_sets.map((s) => s.hash) });
  } else {
    before.reference_sets.forEach((a, i) => {
      const b = after.reference_sets[i]!;
      if (a.hash !== b.hash) out.push({ field: `reference_sets[${i}].hash`, before: a.hash, after: b.hash });
      const moved = a.mean_similarity === null || b.mean_similarity === null ? a.mean_similarity !== b.mean_similarity : Math.abs(a.mean_similarity - b.mean_similarity) > SIMILARITY_TOLERANCE;
      if (moved) out.push({ field: `reference_sets[${i}].mean_similarity`, before: a.mean_similarity, after: b.mean_similarity });
    });
  }
  if (before.reference_similarity_limit !== after.reference_similarity_limit) {
    out.push({ field: "reference_similarity_limit", before: before.reference_similarity_limit, after: after.reference_similarity_limit });
  }

  if (before.embedder === null || after.embedder === null) {
    if (before.embedder !== after.embedder) out.push({ field: "embedder", before: before.embedder?.model ?? null, after: after.embedder?.model ?? null });
  } else {
    if (before.embedder.model !== after.embedder.model) out.push({ field: "embedder.model", before: before.embedder.model, after: after.embedder.model });
    if (before.embedder.dimensions !== after.embedder.dimensions) out.push({ field: "embedder.dimensions", before: before.embedder.dimensions, after: after.embedder.dimensions });
  }

  out.push(...modelDifferences("generators", before.generators, after.generators));
  out.push(...modelDifferences("voters", before.voters, after.voters));
  return out;
}

const shown = (v: ReceiptValue): string => (v === null ? "none" : typeof v === "string" ? v : JSON.stringify(v));
const fixed = (n: number) => n.toFixed(3);

function assertThresholds(t: DriftThresholds): void {
  if (!Number.isFinite(t.minRho) || t.minRho < -1 || t.minRho > 1) throw new RangeError(`compareDriftRuns: minRho must lie in [-1, 1], got ${t.minRho}`);
  if (!Number.isFinite(t.maxMeanChange) || t.maxMeanChange < 0) throw new RangeError(`compareDriftRuns: maxMeanChange must be 0 or more, got ${t.maxMeanChange}`);
}

/**
 * Compares a run of the drift watch with an earlier one. Runs of different batches are not
 * compared (`compared: false`). Otherwise the scores of the assets ranked in both runs give
 * Spearman's rho, Kendall's tau-b and the mean absolute score change, and the receipts are
 * compared field by field. Warns `models_changed` once per receipt difference, and
 * `ranking_moved` when rho falls below `minRho`, the mean change exceeds `maxMeanChange`, or
 * an asset was ranked in one run only. An undefined rho (every score tied) is not judged.
 *
 * @example
 * const c = compareDriftRuns(yesterday, today);
 * if (c.compared && c.warnings.length > 0) alert(c.warnings.map((w) => w.message));
 */
export function compareDriftRuns(previous: DriftRun, current: DriftRun, thresholds: DriftThresholds = DEFAULT_DRIFT_THRESHOLDS): DriftComparison {
  assertThresholds(thresholds);
  if (previous.batchHash !== current.batchHash) return { compared: false, reason: "batch_changed", previousBatchHash: previous.batchHash, currentBatchHash: current.batchHash };

  const common = Object.keys(current.scores)
    .filter((id) => previous.scores[id] !== undefined)
    .sort((a, b) => current.scores[a]!.rank - current.scores[b]!.rank || (a < b ? -1 : a > b ? 1 : 0));
  const missingAssets = sortedDistinct([...Object.keys(previous.scores), ...Object.keys(current.scores)].filter((id) => previous.scores[id] === undefined || current.scores[id] === undefined));
  const changes: AssetChange[] = common.map((assetId) => {
    const before = previous.scores[assetId]!;
    const after = current.scores[assetId]!;
    return { assetId, before, after, scoreChange: after.score - before.score };
  });
  const before = changes.map((c) => c.before.score);
  const after = changes.map((c) => c.after.score);
  const rho = spearmanRho(before, after);
  const tau = kendallTauB(before, after);
  const meanAbsoluteChange = changes.length === 0 ? null : changes.reduce((sum, c) => sum + Math.abs(c.scoreChange), 0) / changes.length;
  const differences = receiptDifferences(previous.receipt, current.receipt);

  const warnings: DriftWarning[] = differences.map((d) => ({ kind: "models_changed", message: `models changed: ${d.field}: ${shown(d.before)} → ${shown(d.after)}` }));
  if (rho !== null && rho < thresholds.minRho) warnings.push({ kind: "ranking_moved", message: `ranking moved: Spearman rho ${fixed(rho)} is below ${fixed(thresholds.minRho)}` });
  if (meanAbsoluteChange !== null && meanAbsoluteChange > thresholds.maxMeanChange) {
    warnings.push({ kind: "ranking_moved", message: `ranking moved: the mean absolute score change ${fixed(meanAbsoluteChange)} is above ${fixed(thresholds.maxMeanChange)}` });
  }
  if (missingAssets.length > 0) warnings.push({ kind: "ranking_moved", message: `ranking moved: ranked in one run only: ${missingAssets.join(", ")}` });

  const codesBefore = sortedDistinct(previous.warningCodes);
  const codesAfter = sortedDistinct(current.warningCodes);
  return {
    compared: true,
    assets: changes.length,
    spearmanRho: rho,
    kendallTauB: tau,
    meanAbsoluteChange,
    changes,
    missingAssets,
    receiptDifferences: differences,
    warningCodesAdded: codesAfter.filter((c) => !codesBefore.includes(c)),
    warningCodesRemoved: codesBefore.filter((c) => !codesAfter.includes(c)),
    warnings,
  };
}
