import { DeliverPolicy, JetStreamApiError, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { decodeEvent, encodeEvent } from "./event-codec.ts";

/** Messages read one by one before a long history is read with an ordered consumer. */
const WALK_LIMIT = 8;
const WRONG_LAST_SEQUENCE = 10071;

export interface StoredEvent {
  seq: number;
  event: LedgerEvent;
}

export type AppendOutcome = { kind: "appended"; seq: number } | { kind: "conflict" } | { kind: "duplicate"; seq: number };

/**
 * The LEDGER stream as the account store needs it: read an account's events after a
 * sequence, append one with optimistic concurrency. Works on nats-server 2.9 (no batch
 * direct get, no multi-filter consumers).
 */
export interface EventLog {
  readAfter(subject: string, afterSeq: number): Promise<StoredEvent[]>;
  append(subject: string, event: LedgerEvent, expectedLastSeq: number, msgId: string): Promise<AppendOutcome>;
}

export function createEventLog(js: JetStreamClient, jsm: JetStreamManager, stream: string, { publishTimeoutMs = 5_000 } = {}): EventLog {
  const get = (req: { seq: number; next_by_subj: string } | { last_by_subj: string }) => jsm.streams.getMessage(stream, req);

  /** A long history: one ordered consumer filtered to the subject, up to `target`. */
  async function bulk(subject: string, fromSeq: number, target: number, into: StoredEvent[]): Promise<number> {
    const consumer = await js.consumers.get(stream, { filter_subjects: subject, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: fromSeq });
    let last = fromSeq - 1;
    const messages = await consumer.consume({ max_messages: 1_000 });
    try {
      for await (const m of messages) {
        into.push({ seq: m.seq, event: decodeEvent(m.data) });
        last = m.seq;
        if (m.seq >= target || m.info.pending === 0) break;
      }
    } finally {
      await messages.close().catch(() => {});
    }
    return last;
  }

  return {
    async readAfter(subject, afterSeq) {
      const out: StoredEvent[] = [];
      let seq = afterSeq;
      for (;;) {
        for (let i = 0; i < WALK_LIMIT; i++) {
          const m = await get({ seq: seq + 1, next_by_subj: subject });
          if (!m) return out;
          out.push({ seq: m.seq, event: decodeEvent(m.data) });
          seq = m.seq;
        }
        const last = await get({ last_by_subj: subject });
        if (!last || last.seq <= seq) return out;
        seq = await bulk(subject, seq + 1, last.seq, out);
      }
    },

    async append(subject, event, expectedLastSeq, msgId) {
      try {
        const ack = await js.publish(subject, encodeEvent(event), { msgID: msgId, expect: { lastSubjectSequence: expectedLastSeq }, timeout: publishTimeoutMs });
        return ack.duplicate ? { kind: "duplicate", seq: ack.seq } : { kind: "appended", seq: ack.seq };
      } catch (err) {
        if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) return { kind: "conflict" };
        throw err;
      }
    },
  };
}
