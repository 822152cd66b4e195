import { sql, type Kysely } from "kysely";
import type { Database } from "@adrank/db";
import type { MirrorIdentity } from "./identity.ts";

export interface MirrorRow extends MirrorIdentity {
  status: "projecting" | "halted";
  problem: string | null;
}

/**
 * The `ledger_mirrors` row of one stream: which stream (name and creation time) the Postgres
 * mirror follows, how far it got, and whether it halted.
 */
export function mirrorStore(db: Kysely<Database>, stream: string) {
  const toRow = (r: { stream: string; stream_created: Date; last_seq: number; status: "projecting" | "halted"; problem: string | null }): MirrorRow => ({
    stream: r.stream,
    streamCreated: r.stream_created,
    lastSeq: Number(r.last_seq),
    status: r.status,
    problem: r.problem,
  });
  return {
    async read(): Promise<MirrorRow | null> {
      const r = await db.selectFrom("ledger_mirrors").selectAll().where("stream", "=", stream).executeTakeFirst();
      return r ? toRow(r) : null;
    },
    /** Records the stream as the one to follow, unless a mirror of this name exists already; returns the row in force. */
    async claim(created: Date): Promise<MirrorRow> {
      await db.insertInto("ledger_mirrors").values({ stream, stream_created: created, last_seq: 0, status: "projecting", problem: null }).onConflict((oc) => oc.column("stream").doNothing()).execute();
      const r = await db.selectFrom("ledger_mirrors").selectAll().where("stream", "=", stream).executeTakeFirstOrThrow();
      return toRow(r);
    },
    /** Marks the mirror halted (the first reason wins); every replica's projection stops on it. */
    async halt(problem: string): Promise<void> {
      await db.updateTable("ledger_mirrors").set({ status: "halted", problem, updated_at: sql<Date>`now()` }).where("stream", "=", stream).where("status", "=", "projecting").execute();
    },
  };
}
export type MirrorStore = ReturnType<typeof mirrorStore>;
