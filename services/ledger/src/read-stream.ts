import { DeliverPolicy, type JetStreamClient, type JsMsg } from "@nats-io/jetstream";

/**
 * Every message of `stream` on `subjects` up to sequence `lastSeq`, in order, through an
 * ordered consumer. It waits for `lastSeq` itself rather than trusting a message's
 * `pending` count: in a cluster the ephemeral consumer may sit on a follower that is one
 * event behind and report nothing pending too early. Throws when `lastSeq` has not arrived
 * within `timeoutMs`.
 *
 * @example
 * for await (const m of readStreamTo(js, "LEDGER", "ledger.acct.>", info.state.last_seq)) fold(m);
 */
export async function* readStreamTo(js: JetStreamClient, stream: string, subjects: string, lastSeq: number, timeoutMs = 30_000): AsyncGenerator<JsMsg> {
  if (lastSeq <= 0) return;
  const consumer = await js.consumers.get(stream, { filter_subjects: subjects, deliver_policy: DeliverPolicy.All });
  // A pull that a failed node held is re-issued after `expires`, not after nats.js' 30 s default.
  const messages = await consumer.consume({ max_messages: 1_000, expires: 5_000 });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void messages.close().catch(() => {});
  }, timeoutMs);
  let last = 0;
  try {
    for await (const m of messages) {
      last = m.seq;
      yield m;
      if (m.seq >= lastSeq) return;
    }
  } finally {
    clearTimeout(timer);
    await messages.close().catch(() => {});
  }
  if (timedOut || last < lastSeq) throw new Error(`reading stream ${stream} stopped at sequence ${last} of ${lastSeq}${timedOut ? ` after ${timeoutMs} ms` : ""}`);
}
