import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { requestsRepository, settlementsRepository } from "@adrank/db/repositories";

/** One reservation as the stream tells it. */
export interface StreamReservation {
  status: string;
  unitsUsed: number | null;
}

/** A stored answer whose credits disagree with what the stream charged. */
export interface AnswerDifference {
  accountId: string;
  requestId: string;
  /** What the answer told its caller, e.g. `credits_used 3 (pending)`. */
  told: string;
  /** What the stream did with its reservation, e.g. `settled 3`, `expired`, `open`, `absent`. */
  charged: string;
}

export interface AnswersReport {
  /** Stored answers compared (those that report credits). */
  checked: number;
  /** Answers that still say "pending" while their settle waits in the outbox, within the grace period. */
  pending: number;
  differences: AnswerDifference[];
}

export interface ReconcileAnswersOptions {
  db: Kysely<Database>;
  /** ADRANK_NAMESPACE: the deployment whose stored answers belong to this stream. */
  namespace: string;
  stream: string;
  reservationsOf(accountId: string): ReadonlyMap<string, StreamReservation> | undefined;
  accountId?: string;
  since: Date;
  /** Answers finished after this (the moment the stream was read) are left out: their settle may not be in what was read. */
  until: Date;
  now: number;
  graceMs: number;
}

/**
 * Every stored answer of the deployment finished since `since` against the stream: the credits
 * it told its caller must be what the stream charged its reservation (issue 33). An answer that
 * says "pending" agrees when the stream charged what it said, or while its settle still waits in
 * the outbox within the grace period; past it, or with any other figure, it is a difference.
 */
export async function reconcileAnswers(o: ReconcileAnswersOptions): Promise<AnswersReport> {
  const answers = (await requestsRepository(o.db).reportedCreditsSince(o.namespace, o.since, o.accountId)).filter(
    (a) => a.reported !== null && (a.finishedAt === null || a.finishedAt < o.until),
  );
  const outbox = await settlementsRepository(o.db).statesOf(
    o.stream,
    answers.filter((a) => a.reported!.status === "pending").map((a) => a.reservationId),
  );
  const report: AnswersReport = { checked: answers.length, pending: 0, differences: [] };
  for (const a of answers) {
    const told = a.reported!;
    const r = o.reservationsOf(a.accountId)?.get(a.reservationId);
    const charged = r?.status === "settled" ? r.unitsUsed : r?.status === "expired" ? 0 : null;
    const differ = (why = "") =>
      report.differences.push({
        accountId: a.accountId,
        requestId: a.requestId,
        told: `credits_used ${told.creditsUsed}${told.status === "pending" ? " (pending)" : ""}${why}`,
        charged: r ? `${r.status}${r.status === "settled" ? ` ${r.unitsUsed}` : ""}` : "absent",
      });
    if (charged !== null && charged !== told.creditsUsed) differ();
    else if (told.status !== "pending") {
      if (charged === null) differ();
    } else {
      // Charged as told, or not yet: fine while the relay has time to apply it and bring the stored answer up to date.
      const old = a.finishedAt !== null && o.now - a.finishedAt.getTime() > o.graceMs;
      if (old) differ(`, still pending after the ${o.graceMs / 1000} s grace period`);
      else if (charged === null && outbox.get(a.reservationId) !== "pending") differ(", and its settle is not in the outbox");
      else report.pending++;
    }
  }
  return report;
}
