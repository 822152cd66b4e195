import { DeliverPolicy, jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { decodeJson, type NatsConnection, type Topology } from "@adrank/messaging";

/** Every event of one account as the LEDGER stream holds it, in order, with its sequence. */
export async function readAccountEvents(nc: NatsConnection, topo: Topology, accountId: string): Promise<Array<{ seq: number; event: LedgerEvent }>> {
  const subject = topo.ledgerAccount(accountId);
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(topo.streams.ledger.name, { subjects_filter: subject });
  const expected = info.state.subjects?.[subject] ?? 0;
  const out: Array<{ seq: number; event: LedgerEvent }> = [];
  if (expected === 0) return out;
  const consumer = await jetstream(nc).consumers.get(topo.streams.ledger.name, { filter_subjects: subject, deliver_policy: DeliverPolicy.All });
  const messages = await consumer.consume({ max_messages: 1_000, expires: 5_000 });
  // Until the count the stream reported: in a cluster this ephemeral consumer may sit on a
  // follower one event behind, whose `pending` says 0 before the last event has arrived.
  const timer = setTimeout(() => void messages.close().catch(() => {}), 20_000);
  try {
    for await (const m of messages) {
      out.push({ seq: m.seq, event: decodeJson(m.data) as LedgerEvent });
      if (out.length >= expected) break;
    }
  } finally {
    clearTimeout(timer);
    await messages.close().catch(() => {});
  }
  if (out.length < expected) throw new Error(`read ${out.length} of the ${expected} events of ${accountId} within 20 s`);
  return out;
}
