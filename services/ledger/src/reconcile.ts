import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import { sql, type Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { balanceOf, evolve, initialState, type AccountState, type LedgerEvent } from "@adrank/ledger-domain";
import type { Topology } from "@adrank/messaging";
import { accountOfSubject, decodeEvent } from "./event-codec.ts";
import { createEventLog } from "./event-log.ts";
import { judgeStream } from "./mirror/identity.ts";
import { readStreamTo } from "./read-stream.ts";
import { mirrorStore } from "./mirror/store.ts";
import { reconcileAnswers, type AnswersReport } from "./reconcile-answers.ts";

/** How long the mirror may lag the stream before reconcile calls it a failure (normal lag is tens of milliseconds). */
export const DEFAULT_BEHIND_GRACE_MS = 30_000;

export interface Difference {
  accountId: string;
  /** e.g. "granted", "last_seq", "reservation r1 status", "model usage 2026-11-22 scoring openai:gpt-5-mini calls". */
  field: string;
  stream: unknown;
  projection: unknown;
}

export interface BehindAccount {
  accountId: string;
  streamSeq: number;
  projectedSeq: number;
  /** Events of the account in the stream that the mirror does not hold. */
  missingEvents: number;
  /** Age (ms, by the event's own time) of the oldest of them. */
  oldestMissingAgeMs: number;
  /** True when that age exceeds the grace period: the projection is stuck, not just lagging. */
  overdue: boolean;
}

export interface ReconcileReport {
  stream: string;
  /** The stream as the servers describe it. */
  streamState: { created: string; lastSeq: number; messages: number };
  /** The mirror's record of the stream it follows; null when no mirror of this stream exists yet. */
  mirror: { streamCreated: string; lastSeq: number; status: "projecting" | "halted"; problem: string | null } | null;
  /** Why stream and mirror are not the same history (a halted mirror, or a mismatch seen now); null when they are. */
  identityProblem: string | null;
  accountsChecked: number;
  /** Accounts the projection has not caught up with: not compared field by field. */
  behind: BehindAccount[];
  differences: Difference[];
  /** The deployment's stored answers finished within `answersSinceMs`, against the stream (issue 33). */
  answers: AnswersReport;
  graceMs: number;
}

/** Whether the report is a failure: a different history, a difference, or a lag beyond the grace period. */
export const reconcileFailed = (r: ReconcileReport): boolean => r.identityProblem !== null || r.differences.length > 0 || r.behind.some((b) => b.overdue) || r.answers.differences.length > 0;

/** How far back stored answers are compared with the stream by default. */
export const DEFAULT_ANSWERS_SINCE_MS = 24 * 60 * 60 * 1_000;

interface Folded {
  state: AccountState;
  lastSeq: number;
  count: number;
  /** Sequence and event time of every event, to name what the mirror lacks. */
  seen: Array<{ seq: number; at: number }>;
  /** Every reservation as the events tell it, beyond what the state remembers. */
  reservations: Map<string, { status: string; units: number; unitsUsed: number | null }>;
  /** Model usage summed by "<UTC day> <kind> <model>", as the projection sums it. */
  models: Map<string, ModelTotals>;
}

interface ModelTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
}

const emptyFold = (): Folded => ({ state: initialState(), lastSeq: 0, count: 0, seen: [], reservations: new Map(), models: new Map() });
// Model names carry no spaces (bus-contracts' ModelUsage), nor do days and kinds.
const modelKey = (day: string, kind: string, model: string) => `${day} ${kind} ${model}`;

function fold(f: Folded, seq: number, event: LedgerEvent): void {
  f.state = evolve(f.state, event);
  f.lastSeq = seq;
  f.count++;
  f.seen.push({ seq, at: event.at });
  if (event.type === "UsageReserved") f.reservations.set(event.reservationId, { status: "open", units: event.units, unitsUsed: null });
  if (event.type === "UsageSettled") {
    f.reservations.set(event.reservationId, { status: "settled", units: event.unitsReserved, unitsUsed: event.unitsUsed });
    for (const u of event.modelUsage ?? []) {
      const key = modelKey(new Date(event.at).toISOString().slice(0, 10), event.kind, u.model);
      const t = f.models.get(key) ?? { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
      f.models.set(key, {
        calls: t.calls + u.calls,
        inputTokens: t.inputTokens + u.inputTokens,
        outputTokens: t.outputTokens + u.outputTokens,
        cachedInputTokens: t.cachedInputTokens + (u.cachedInputTokens ?? 0),
        cacheWriteInputTokens: t.cacheWriteInputTokens + (u.cacheWriteInputTokens ?? 0),
      });
    }
  }
  if (event.type === "ReservationExpired") f.reservations.set(event.reservationId, { status: "expired", units: event.unitsReserved, unitsUsed: 0 });
}

export interface ReconcileOptions {
  js: JetStreamClient;
  jsm: JetStreamManager;
  db: Kysely<Database>;
  topo: Topology;
  accountId?: string;
  graceMs?: number;
  /** Stored answers finished within this are compared with the stream. */
  answersSinceMs?: number;
  now?: () => number;
}

/**
 * Compares the Postgres mirror of one LEDGER stream with the state folded from that stream,
 * for one account or all of them, and lists everything that differs: whether the mirror
 * follows this very stream (its creation time) and is not ahead of it, every account whose
 * totals or reservations differ, and every account the mirror has not caught up with (with
 * how long the oldest missing event has waited). Rows of other streams sharing the
 * database are ignored.
 *
 * @example
 * const report = await reconcile({ js, jsm, db, topo });
 * if (reconcileFailed(report)) process.exitCode = 1;
 */
export async function reconcile({ js, jsm, db, topo, accountId, graceMs = DEFAULT_BEHIND_GRACE_MS, answersSinceMs = DEFAULT_ANSWERS_SINCE_MS, now = Date.now }: ReconcileOptions): Promise<ReconcileReport> {
  const stream = topo.streams.ledger.name;
  // Answers finished after this may have been settled after the stream was read: not compared.
  const readAt = new Date(now());
  const prefix = topo.ledgerAccount("x").slice(0, -1);
  const folds = new Map<string, Folded>();
  // The mirror before the stream: a healthy mirror only lags, so read in this order it is never ahead.
  const mirrorRow = await mirrorStore(db, stream).read();
  const info = await jsm.streams.info(stream);

  if (accountId !== undefined) {
    const f = emptyFold();
    for (const { seq, event } of await createEventLog(js, jsm, stream).readAfter(topo.ledgerAccount(accountId), 0)) fold(f, seq, event);
    if (f.count > 0) folds.set(accountId, f);
  } else if (info.state.messages > 0) {
    // One ordered pass over the whole stream, grouped by account.
    for await (const m of readStreamTo(js, stream, topo.ledgerAccountWildcard, info.state.last_seq)) {
      const id = accountOfSubject(m.subject, prefix);
      const f = folds.get(id) ?? emptyFold();
      folds.set(id, f);
      fold(f, m.seq, decodeEvent(m.data));
    }
  }

  const identity = { name: stream, created: new Date(info.created), lastSeq: info.state.last_seq };
  const identityProblem = mirrorRow ? (mirrorRow.status === "halted" ? (mirrorRow.problem ?? "the mirror is halted") : (judgeStream(mirrorRow, identity)?.sentence ?? null)) : null;

  let accountsQuery = db.selectFrom("ledger_accounts").selectAll().where("stream", "=", stream);
  let reservationsQuery = db.selectFrom("ledger_reservations").select(["account_id", "reservation_id", "status", "units", "units_used"]).where("stream", "=", stream);
  let modelsQuery = db
    .selectFrom("ledger_model_usage")
    .select(["account_id", sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "kind", "model", "calls", "input_tokens", "output_tokens", "cached_input_tokens", "cache_write_input_tokens"])
    .where("stream", "=", stream);
  if (accountId !== undefined) {
    accountsQuery = accountsQuery.where("account_id", "=", accountId);
    reservationsQuery = reservationsQuery.where("account_id", "=", accountId);
    modelsQuery = modelsQuery.where("account_id", "=", accountId);
  }
  const projected = new Map((await accountsQuery.execute()).map((a) => [a.account_id, a]));
  const projectedReservations = new Map<string, Map<string, { status: string; units: number; unitsUsed: number | null }>>();
  for (const r of await reservationsQuery.execute()) {
    const m = projectedReservations.get(r.account_id) ?? new Map();
    projectedReservations.set(r.account_id, m);
    m.set(r.reservation_id, { status: r.status, units: r.units, unitsUsed: r.units_used });
  }
  const projectedModels = new Map<string, Map<string, ModelTotals>>();
  for (const r of await modelsQuery.execute()) {
    const m = projectedModels.get(r.account_id) ?? new Map<string, ModelTotals>();
    projectedModels.set(r.account_id, m);
    m.set(modelKey(r.day, r.kind, r.model), { calls: r.calls, inputTokens: r.input_tokens, outputTokens: r.output_tokens, cachedInputTokens: r.cached_input_tokens, cacheWriteInputTokens: r.cache_write_input_tokens });
  }

  const report: ReconcileReport = {
    stream,
    streamState: { created: identity.created.toISOString(), lastSeq: info.state.last_seq, messages: info.state.messages },
    mirror: mirrorRow ? { streamCreated: mirrorRow.streamCreated.toISOString(), lastSeq: mirrorRow.lastSeq, status: mirrorRow.status, problem: mirrorRow.problem } : null,
    identityProblem,
    accountsChecked: 0,
    behind: [],
    differences: [],
    answers: { checked: 0, pending: 0, differences: [] },
    graceMs,
  };
  const at = now();
  const ids = [...new Set([...folds.keys(), ...projected.keys(), ...projectedModels.keys()])].sort();
  for (const id of ids) {
    report.accountsChecked++;
    const f = folds.get(id) ?? emptyFold();
    const p = projected.get(id);
    const projectedSeq = p?.last_seq ?? 0;
    if (projectedSeq < f.lastSeq) {
      const held = new Set(
        (await db.selectFrom("ledger_events").select("stream_seq").where("stream", "=", stream).where("account_id", "=", id).execute()).map((r) => Number(r.stream_seq)),
      );
      const missing = f.seen.filter((e) => !held.has(e.seq));
      const oldest = Math.max(0, at - Math.min(...missing.map((e) => e.at)));
      report.behind.push({ accountId: id, streamSeq: f.lastSeq, projectedSeq, missingEvents: missing.length, oldestMissingAgeMs: oldest, overdue: oldest > graceMs });
      continue;
    }
    const differ = (field: string, stream: unknown, projection: unknown) => {
      if (stream !== projection) report.differences.push({ accountId: id, field, stream, projection });
    };
    const b = balanceOf(f.state);
    differ("last_seq", f.lastSeq, p?.last_seq ?? 0);
    differ("event_count", f.count, p?.event_count ?? 0);
    differ("granted", b.granted, p?.granted ?? 0);
    differ("used", b.used, p?.used ?? 0);
    differ("reserved", b.reserved, p?.reserved ?? 0);
    const rows = projectedReservations.get(id) ?? new Map();
    for (const rid of new Set([...f.reservations.keys(), ...rows.keys()])) {
      const s = f.reservations.get(rid);
      const q = rows.get(rid);
      differ(`reservation ${rid} status`, s?.status ?? null, q?.status ?? null);
      differ(`reservation ${rid} units`, s?.units ?? null, q?.units ?? null);
      differ(`reservation ${rid} units_used`, s?.unitsUsed ?? null, q?.unitsUsed ?? null);
    }
    const models = projectedModels.get(id) ?? new Map<string, ModelTotals>();
    for (const key of [...new Set([...f.models.keys(), ...models.keys()])].sort()) {
      const s = f.models.get(key);
      const q = models.get(key);
      differ(`model usage ${key} calls`, s?.calls ?? null, q?.calls ?? null);
      differ(`model usage ${key} input_tokens`, s?.inputTokens ?? null, q?.inputTokens ?? null);
      differ(`model usage ${key} output_tokens`, s?.outputTokens ?? null, q?.outputTokens ?? null);
      differ(`model usage ${key} cached_input_tokens`, s?.cachedInputTokens ?? null, q?.cachedInputTokens ?? null);
      differ(`model usage ${key} cache_write_input_tokens`, s?.cacheWriteInputTokens ?? null, q?.cacheWriteInputTokens ?? null);
    }
  }
  report.answers = await reconcileAnswers({
    db,
    namespace: topo.namespace,
    stream,
    reservationsOf: (id) => folds.get(id)?.reservations,
    ...(accountId !== undefined ? { accountId } : {}),
    since: new Date(readAt.getTime() - answersSinceMs),
    until: readAt,
    now: at,
    graceMs,
  });
  return report;
}
