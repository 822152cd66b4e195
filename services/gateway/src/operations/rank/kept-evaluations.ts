import { Evaluation } from "@adrank/bus-contracts";
import type { KeptEvaluation, KeptEvaluationsRepository } from "@adrank/db/repositories";
import { keptEvaluationKey, type KeyedJob } from "./kept-evaluation-key.ts";
import { createGroupWriter } from "../../lifecycle/group-writer.ts";
import { CALL_WINDOW_MAX_ACCOUNTS, createCallWindow } from "../shared/call-window.ts";

export interface KeptEvaluationsLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface KeptEvaluationsDeps {
  repo: Pick<KeptEvaluationsRepository, "keepMany" | "find" | "deleteExpired">;
  /** ADRANK_NAMESPACE: what this gateway keeps and reads is its deployment's only. */
  namespace: string;
  /** ADRANK_KEPT_EVALUATIONS_TTL_HOURS. */
  ttlHours: number;
  /** The method key of the scorers running now (their presence answer), or null when none answers. */
  askMethodKey(): Promise<string | null>;
  log: KeptEvaluationsLogger;
  now?: () => number;
}

/** How long the scorers' method key is trusted before they are asked again. */
export const METHOD_KEY_TTL_MS = 10_000;
/**
 * Requests per account and minute, on one gateway, whose images in the body are decoded to be
 * looked up before their reservation. That decoding happens before the ledger can refuse the
 * request (402, 429), so without a quota an account with no credits could make the gateway
 * decode images for free; beyond it a request still reuses, but is looked up in its run, after
 * the reservation, like an image URL. 240 is the ledger's default account request window, so a
 * refused request can cost no more decoding than an admitted one.
 */
export const EARLY_LOOKUPS_PER_MINUTE = 240;
/** How often expired evaluations are swept, and how many one statement deletes. */
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 1_000;
/** Statements one sweep runs at most, so a large backlog is worked off over several sweeps. */
const SWEEP_MAX_BATCHES = 20;

/**
 * The gateway's store of kept evaluations (issue 36). Every successful evaluation is kept for
 * its account, whatever its request asked (`keep`: written in groups, never awaited by the
 * request); a request with reuse_evaluations asks which method the scorers run now
 * (`currentMethodKey`, cached for METHOD_KEY_TTL_MS) and finds kept evaluations made by it
 * (`find`). Reuse only saves work: when the store fails, the request scores as usual.
 */
export function createKeptEvaluations(deps: KeptEvaluationsDeps) {
  const { repo, namespace, log } = deps;
  const now = deps.now ?? Date.now;
  const writer = createGroupWriter<KeptEvaluation>((rows) => repo.keepMany(rows, deps.ttlHours), { maxBatch: 200, maxInFlight: 2 });
  const writes = new Set<Promise<void>>();
  let methodKey: { value: Promise<string | null>; until: number; answered?: string | null } | null = null;
  let timer: NodeJS.Timeout | null = null;
  const earlyLookups = createCallWindow({ limit: EARLY_LOOKUPS_PER_MINUTE, windowMs: 60_000, maxAccounts: CALL_WINDOW_MAX_ACCOUNTS, now });

  const sweep = async (): Promise<number> => {
    let deleted = 0;
    for (let i = 0; i < SWEEP_MAX_BATCHES; i++) {
      const n = await repo.deleteExpired(namespace, SWEEP_BATCH);
      deleted += n;
      if (n < SWEEP_BATCH) break;
    }
    return deleted;
  };

  return {
    /** Keeps a successful evaluation of `job` for `accountId`, under the method key its scorer put on it (none from older scorers: not kept). */
    keep(accountId: string, job: KeyedJob, evaluation: Evaluation): void {
      if (evaluation.methodKey === undefined) return;
      // A scorer of another method answered: the scorers changed, so ask them again at once.
      if (methodKey?.answered !== undefined && methodKey.answered !== evaluation.methodKey) methodKey = null;
      const row: KeptEvaluation = { namespace, accountId, key: keptEvaluationKey(job, evaluation.methodKey), methodKey: evaluation.methodKey, evaluation };
      const write = writer.write(row).catch((err: unknown) => log.warn({ err }, "keeping an evaluation for reuse failed; it will be scored again when asked"));
      writes.add(write);
      void write.finally(() => writes.delete(write));
    },

    /**
     * The method key the scorers answer now; one question per METHOD_KEY_TTL_MS, shared by every
     * request, and asked again at once when an evaluation comes back under another key.
     */
    currentMethodKey(): Promise<string | null> {
      if (methodKey === null || methodKey.until <= now()) {
        const asked: NonNullable<typeof methodKey> = { value: deps.askMethodKey().catch(() => null), until: now() + METHOD_KEY_TTL_MS };
        void asked.value.then((key) => (asked.answered = key));
        methodKey = asked;
      }
      return methodKey.value;
    },

    /**
     * The account's kept evaluation of each job made under `methodKey`, in the jobs' order (null
     * where there is none). A stored evaluation that no longer reads as one is not reused.
     */
    async find(accountId: string, methodKey: string, jobs: readonly KeyedJob[]): Promise<Array<Evaluation | null>> {
      const keys = jobs.map((job) => keptEvaluationKey(job, methodKey));
      let found: Map<string, unknown>;
      try {
        found = await repo.find({ namespace, accountId, methodKey, keys });
      } catch (err) {
        log.warn({ err }, "looking up kept evaluations failed; the assets are scored anew");
        return keys.map(() => null);
      }
      return keys.map((key) => {
        const parsed = Evaluation.safeParse(found.get(key));
        return parsed.success && parsed.data.methodKey === methodKey ? parsed.data : null;
      });
    },

    /** Whether `accountId` may have its images decoded before its reservation once more this minute (EARLY_LOOKUPS_PER_MINUTE); counts the one it allows. */
    mayLookUpEarly(accountId: string): boolean {
      return earlyLookups.take(accountId).ok;
    },

    /** Deletes expired evaluations of this namespace in bounded batches; returns how many. */
    sweep,

    /** Starts the periodic sweep of expired evaluations. */
    start(): void {
      timer ??= setInterval(() => {
        sweep().then(
          (n) => n > 0 && log.info({ deleted: n }, "swept expired kept evaluations"),
          (err: unknown) => log.warn({ err }, "sweeping expired kept evaluations failed; trying again later"),
        );
      }, SWEEP_EVERY_MS);
      timer.unref();
    },

    /** Stops the sweep and waits for the evaluations still being written. */
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...writes]);
    },
  };
}

export type KeptEvaluations = ReturnType<typeof createKeptEvaluations>;
