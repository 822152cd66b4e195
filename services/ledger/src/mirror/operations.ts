import { isDeepStrictEqual } from "node:util";
import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import { sql, type Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { decodeJson, type Topology } from "@adrank/messaging";
import { accountOfSubject } from "../event-codec.ts";
import { PROJECTION_CONSUMER } from "../projection.ts";
import { readStreamTo } from "../read-stream.ts";
import { judgeStream } from "./identity.ts";
import { mirrorStore, type MirrorRow } from "./store.ts";

/** An operator command that would do the wrong thing in the state found; the message says why and what to do instead. */
export class MirrorCommandRefused extends Error {
  override name = "MirrorCommandRefused";
}

export interface MirrorDeps {
  db: Kysely<Database>;
  js: JetStreamClient;
  jsm: JetStreamManager;
  topo: Topology;
}

interface StreamEvent {
  seq: number;
  accountId: string;
  payload: unknown;
}

export interface MirrorStatus {
  stream: string;
  streamExists: boolean;
  streamCreated: string | null;
  streamLastSeq: number;
  streamMessages: number;
  mirror: MirrorRow | null;
  /** A mismatch seen now that the mirror has not recorded yet (no replica looked since). */
  unrecordedProblem: string | null;
}

const isNotFound = (err: unknown) => err instanceof Error && /not found/i.test(err.message);

async function streamInfo(jsm: JetStreamManager, stream: string) {
  try {
    return await jsm.streams.info(stream);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The mirror's record and the stream's state side by side, read-only. */
export async function mirrorStatus({ db, jsm, topo }: MirrorDeps): Promise<MirrorStatus> {
  const stream = topo.streams.ledger.name;
  const mirror = await mirrorStore(db, stream).read();
  const info = await streamInfo(jsm, stream);
  const identity = info ? { name: stream, created: new Date(info.created), lastSeq: info.state.last_seq } : null;
  return {
    stream,
    streamExists: info !== null,
    streamCreated: identity?.created.toISOString() ?? null,
    streamLastSeq: info?.state.last_seq ?? 0,
    streamMessages: info?.state.messages ?? 0,
    mirror,
    unrecordedProblem: mirror && identity && mirror.status === "projecting" ? (judgeStream(mirror, identity)?.sentence ?? null) : null,
  };
}

async function deleteProjectionConsumer(jsm: JetStreamManager, topo: Topology): Promise<void> {
  try {
    await jsm.consumers.delete(topo.streams.ledger.name, topo.consumer(PROJECTION_CONSUMER));
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * Takes the stream as the truth: the mirror's rows of this stream move to
 * `ledger_events_archive` (reason "rebuild"), the totals, reservations and model usage are
 * cleared, and the mirror is pointed at the stream as it is now, so every replica projects it
 * again from its first event. Refused while the mirror is projecting unless `force` (stop the
 * ledger replicas first then).
 */
export async function rebuildMirror({ db, jsm, topo }: MirrorDeps, { force = false } = {}): Promise<{ archived: number; streamCreated: string; streamLastSeq: number }> {
  const stream = topo.streams.ledger.name;
  const info = await streamInfo(jsm, stream);
  if (!info) throw new MirrorCommandRefused(`The LEDGER stream "${stream}" does not exist: start a ledger replica (it creates the stream) or re-seed it from the mirror instead.`);
  const row = await mirrorStore(db, stream).read();
  if (row?.status === "projecting" && !force) {
    throw new MirrorCommandRefused(`The mirror of "${stream}" is not halted: rebuilding it would discard a healthy mirror. Stop every ledger replica and pass --force if you mean it.`);
  }
  // Before the rows change: replicas see a projecting mirror only after the commit, and must then start from the stream's first event.
  await deleteProjectionConsumer(jsm, topo);
  const created = new Date(info.created);
  const archived = await db.transaction().execute(async (trx) => {
    await trx.selectFrom("ledger_mirrors").select("stream").where("stream", "=", stream).forUpdate().execute();
    const moved = await sql<{ n: number }>`
      with moved as (
        insert into ledger_events_archive (reason, stream, stream_created, stream_seq, account_id, payload)
        select 'rebuild', e.stream, m.stream_created, e.stream_seq, e.account_id, e.payload
        from ledger_events e join ledger_mirrors m on m.stream = e.stream
        where e.stream = ${stream}
        returning 1)
      select count(*)::int as n from moved`.execute(trx);
    await trx.deleteFrom("ledger_events").where("stream", "=", stream).execute();
    await trx.deleteFrom("ledger_reservations").where("stream", "=", stream).execute();
    await trx.deleteFrom("ledger_accounts").where("stream", "=", stream).execute();
    await trx.deleteFrom("ledger_model_usage").where("stream", "=", stream).execute();
    await trx
      .insertInto("ledger_mirrors")
      .values({ stream, stream_created: created, last_seq: 0, status: "projecting", problem: null })
      .onConflict((oc) => oc.column("stream").doUpdateSet({ stream_created: created, last_seq: 0, status: "projecting", problem: null, updated_at: sql<Date>`now()` }))
      .execute();
    return moved.rows[0]?.n ?? 0;
  });
  return { archived, streamCreated: created.toISOString(), streamLastSeq: info.state.last_seq };
}

async function readStream(js: JetStreamClient, topo: Topology, lastSeq: number): Promise<StreamEvent[]> {
  const prefix = topo.ledgerAccount("x").slice(0, -1);
  const out: StreamEvent[] = [];
  for await (const m of readStreamTo(js, topo.streams.ledger.name, topo.ledgerAccountWildcard, lastSeq)) {
    out.push({ seq: m.seq, accountId: accountOfSubject(m.subject, prefix), payload: decodeJson(m.data) });
  }
  return out;
}

export interface ReseedResult {
  /** Events already in the stream, equal to the mirror's first ones. */
  kept: number;
  /** Mirror events appended to the stream. */
  appended: number;
  /** Stream events moved to the archive (only with discardStreamEvents). */
  discarded: number;
  streamCreated: string;
  streamLastSeq: number;
}

/**
 * Takes the mirror as the truth: makes the stream hold the mirror's events, in their order.
 * Events the stream still has must be exactly the mirror's first events (a stream that lost
 * its tail, or a new empty one); the rest are appended and the mirror's sequence numbers are
 * moved to where they now stand. A stream holding events the mirror lacks is refused, unless
 * `discardStreamEvents`: those are moved to `ledger_events_archive` and the stream is
 * recreated empty first (with its replica count; a missing stream is created with `replicas`). Safe to run again after a failure half-way: what was appended is
 * then the prefix that is kept.
 */
export async function reseedStream({ db, js, jsm, topo }: MirrorDeps, { discardStreamEvents = false, replicas = 1 } = {}): Promise<ReseedResult> {
  const stream = topo.streams.ledger.name;
  const store = mirrorStore(db, stream);
  const row = await store.read();
  if (!row) throw new MirrorCommandRefused(`There is no mirror of "${stream}" in this database: nothing to re-seed from.`);
  if (row.status !== "halted") throw new MirrorCommandRefused(`The mirror of "${stream}" is not halted: the stream is the mirrored history, so there is nothing to re-seed. Run reconcile to compare them.`);
  let info = await streamInfo(jsm, stream);
  if (!info) {
    await jsm.streams.add({ ...topo.streams.ledger, num_replicas: replicas });
    info = (await streamInfo(jsm, stream))!;
  }

  const mirrored = (await db.selectFrom("ledger_events").select(["stream_seq", "account_id", "payload"]).where("stream", "=", stream).orderBy("stream_seq").execute()).map((e) => ({
    seq: Number(e.stream_seq),
    accountId: e.account_id,
    payload: e.payload as unknown,
  }));
  let present = await readStream(js, topo, info.state.last_seq);
  if (present.length !== info.state.messages) throw new Error(`read ${present.length} of the stream's ${info.state.messages} events: nothing was changed; run the command again`);
  const mismatch = present.findIndex((e, i) => i >= mirrored.length || e.accountId !== mirrored[i]!.accountId || !isDeepStrictEqual(e.payload, mirrored[i]!.payload));
  let discarded = 0;
  if (mismatch >= 0) {
    const e = present[mismatch]!;
    if (!discardStreamEvents) {
      throw new MirrorCommandRefused(
        `The stream "${stream}" holds ${present.length} events, and its event at sequence ${e.seq} (account ${e.accountId}) is not the mirror's event #${mismatch + 1}: re-seeding would mix two histories. Either keep the stream (rebuild) or pass --discard-stream-events to move the stream's events to ledger_events_archive and re-seed an empty stream.`,
      );
    }
    const created = new Date(info.created);
    await db
      .insertInto("ledger_events_archive")
      .values(present.map((p) => ({ reason: "reseed-discarded-stream-events" as const, stream, stream_created: created, stream_seq: p.seq, account_id: p.accountId, payload: JSON.stringify(p.payload) })))
      .execute();
    discarded = present.length;
    const replicas = info.config.num_replicas;
    await jsm.streams.delete(stream);
    await jsm.streams.add({ ...topo.streams.ledger, num_replicas: replicas });
    info = (await streamInfo(jsm, stream))!;
    present = [];
  }

  // Old mirror sequence -> the sequence the same event holds in the stream now.
  const moved = new Map<number, number>(present.map((p, i) => [mirrored[i]!.seq, p.seq]));
  let last = info.state.last_seq;
  const createdMs = row.streamCreated.getTime();
  for (const e of mirrored.slice(present.length)) {
    const ack = await js.publish(topo.ledgerAccount(e.accountId), JSON.stringify(e.payload), { msgID: `reseed:${createdMs}:${e.seq}`, expect: { lastSequence: last } });
    last = ack.seq;
    moved.set(e.seq, ack.seq);
  }
  // The projection re-reads the stream from its first event and finds every one already mirrored, unchanged.
  await deleteProjectionConsumer(jsm, topo);
  const after = (await streamInfo(jsm, stream))!;
  const created = new Date(after.created);
  await db.transaction().execute(async (trx) => {
    await trx.selectFrom("ledger_mirrors").select("stream").where("stream", "=", stream).forUpdate().execute();
    // Two steps through negative numbers: no sequence collides with another mid-way.
    await sql`update ledger_events set stream_seq = -stream_seq where stream = ${stream}`.execute(trx);
    const pairs = [...moved];
    for (let i = 0; i < pairs.length; i += 1_000) {
      const values = sql.join(pairs.slice(i, i + 1_000).map(([from, to]) => sql`(${from}::bigint, ${to}::bigint)`));
      await sql`update ledger_events e set stream_seq = m.to_seq from (values ${values}) as m(from_seq, to_seq) where e.stream = ${stream} and e.stream_seq = -m.from_seq`.execute(trx);
    }
    await sql`update ledger_accounts a set last_seq = coalesce((select max(e.stream_seq) from ledger_events e where e.stream = a.stream and e.account_id = a.account_id), 0) where a.stream = ${stream}`.execute(trx);
    await trx
      .updateTable("ledger_mirrors")
      .set({ stream_created: created, last_seq: after.state.last_seq, status: "projecting", problem: null, updated_at: sql<Date>`now()` })
      .where("stream", "=", stream)
      .execute();
  });
  return { kept: present.length, appended: mirrored.length - present.length, discarded, streamCreated: created.toISOString(), streamLastSeq: after.state.last_seq };
}
