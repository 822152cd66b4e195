import { randomUUID } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { FinishedRequest } from "./finished-request.ts";
import { planFingerprint, type EvalPlan } from "./plan.ts";
import { changedSettings, settingsFingerprint, type EvalSettings } from "./run-settings.ts";

// The resume file of `adrank eval` (<out>.state.json): which requests of a run are answered,
// with what they returned. A run killed half-way, or stopped by an error, starts again from it
// and pays only for the requests it has not got yet.

export interface EvalState {
  version: 1;
  dataset_sha256: string;
  settings: EvalSettings;
  /** Part of every request's Idempotency-Key: a resumed run sends the same keys, a new run new ones. */
  run_id: string;
  started_at: string;
  /** How many requests the run has: the plan of the same dataset and settings. */
  requests: number;
  /**
   * planFingerprint of the run's plan: `done` and the Idempotency-Keys name requests by their
   * index, which means the same request only in the same plan. Absent in files of versions
   * that planned no side-by-side requests.
   */
  plan_sha256?: string;
  done: FinishedRequest[];
}

export const statePathOf = (outPath: string) => `${outPath}.state.json`;

export const newState = (datasetSha256: string, settings: EvalSettings, plan: EvalPlan, now = new Date()): EvalState => ({
  version: 1,
  dataset_sha256: datasetSha256,
  settings,
  run_id: randomUUID(),
  started_at: now.toISOString(),
  requests: plan.requests.length,
  plan_sha256: planFingerprint(plan),
  done: [],
});

const isState = (v: unknown): v is EvalState => {
  const s = v as Partial<EvalState> | null;
  return typeof s === "object" && s !== null && s.version === 1 && typeof s.dataset_sha256 === "string" && typeof s.run_id === "string" && typeof s.started_at === "string" && typeof s.requests === "number" && (s.plan_sha256 === undefined || typeof s.plan_sha256 === "string") && typeof s.settings === "object" && s.settings !== null && Array.isArray(s.done);
};

/**
 * The state to go on from, or why there is none. A file of another dataset or other settings
 * (or not a state at all) is not used: its results would not measure this run. It is not
 * deleted either; the new run's first write replaces it.
 */
export async function readState(path: string, datasetSha256: string, settings: EvalSettings, plan: EvalPlan): Promise<{ state: EvalState | null; note: string | null }> {
  const text = await readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return null;
    throw err;
  });
  if (text === null) return { state: null, note: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!isState(parsed)) return { state: null, note: `ignoring ${path}: not a state file of this adrank version; starting afresh` };
  if (parsed.dataset_sha256 !== datasetSha256) return { state: null, note: `ignoring ${path}: it is of another version of the dataset (the file changed); starting afresh` };
  if (settingsFingerprint(parsed.settings) !== settingsFingerprint(settings)) {
    return { state: null, note: `ignoring ${path}: it was run with other settings (${changedSettings(parsed.settings, settings).join(", ")}); starting afresh` };
  }
  const requests = plan.requests.length;
  const fingerprint = planFingerprint(plan);
  const sideBySide = (kinds: ReadonlyArray<{ kind: string }>) => kinds.some((r) => r.kind === "rank-audiences");
  // A file without a fingerprint planned as this version does when nothing goes side by side.
  const samePlan = parsed.plan_sha256 === undefined ? parsed.requests === requests && !sideBySide(plan.requests) : parsed.plan_sha256 === fingerprint;
  if (!samePlan) {
    const what = parsed.requests === requests ? "other requests" : `${parsed.requests} requests, this run ${requests}`;
    // The likely cause when either plan ranks audiences side by side.
    const why = sideBySide(plan.requests) || sideBySide(parsed.done) ? " (--record-outcomes ranks each audience alone; without it, audiences of the same creatives go side by side)" : "";
    return { state: null, note: `ignoring ${path}: it planned ${what}${why}; starting afresh` };
  }
  return { state: { ...parsed, plan_sha256: fingerprint }, note: null };
}

/** Writes the state whole or not at all: a run killed while writing leaves the previous state. */
export async function writeState(path: string, state: EvalState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state)}\n`);
  await rename(temporary, path);
}

export const deleteState = (path: string) => rm(path, { force: true });
