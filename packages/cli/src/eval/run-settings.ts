import { createHash } from "node:crypto";

/**
 * What, besides the dataset, decides what an eval run sends and so what it measures: a run
 * resumes only from a state of the same dataset and the same settings. --metric, --out,
 * --html and --record-outcomes are not among them (they change what is done with the scores).
 */
export interface EvalSettings {
  /** The API the run talks to (ADRANK_BASE_URL): another server may run other models. */
  base_url: string;
  /** --goal, the default of rows without a goal; null leaves the API's default (purchase-intent). */
  goal: string | null;
  /** --audience-name (with --audience-description) or --audience-id: the default of rows without one. */
  audience: { name: string; description: string | null } | { id: string } | null;
  asset_type: string | null;
  platform: string | null;
  refine: boolean;
}

/** The settings as one canonical string (fixed key order): equal settings, equal strings. */
export function settingsFingerprint(s: EvalSettings): string {
  const audience = s.audience === null ? null : "id" in s.audience ? { id: s.audience.id } : { name: s.audience.name, description: s.audience.description };
  return JSON.stringify([s.base_url, s.goal, audience, s.asset_type, s.platform, s.refine]);
}

/** The names of the settings that differ, for a note: ["platform", "refine"]. */
export function changedSettings(a: EvalSettings, b: EvalSettings): string[] {
  const keys = ["base_url", "goal", "audience", "asset_type", "platform", "refine"] as const;
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/**
 * The Idempotency-Key of one request of one run: the same for the same dataset, settings, run
 * and request, so a request that was in flight when a run was killed is answered from the
 * server's store on resume (within 24 h) instead of being run and billed again. The run id
 * (kept in the state file) makes a new run a new set of keys: a second run of the same data,
 * say after the server switched models, must be scored again, not replayed.
 *
 * @example
 * requestKeyOf("9f86…", settings, "0b6f…", 2); // "adrank-eval-5d41…" (76 characters)
 */
export function requestKeyOf(datasetSha256: string, settings: EvalSettings, runId: string, index: number): string {
  const digest = createHash("sha256").update(`${datasetSha256}\n${settingsFingerprint(settings)}\n${runId}\n${index}`).digest("hex");
  return `adrank-eval-${digest}`;
}
