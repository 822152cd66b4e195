import { setTimeout as sleep } from "node:timers/promises";
import type { Consumer, ConsumerMessages, JsMsg } from "@nats-io/jetstream";

/** How long one pull waits at the server for messages before it is re-issued. */
const PULL_EXPIRES_MS = 2_000;
/** Pause after a pull failed (consumer gone, connection closed) before those slots pull again. */
const PULL_RETRY_MS = 500;

export interface PullDispatcherOptions {
  consumer: Consumer;
  /** Most messages this process holds at once: being handled plus asked for and not yet delivered. */
  slots: number;
  /** Works on one message until it is acked, nakked or terminated; runs alongside the others. */
  handle(msg: JsMsg): Promise<void>;
  logger: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export interface PullDispatcher {
  /** Messages being handled. */
  busy(): number;
  /** Stops asking, closes the open pulls (messages they still deliver are nakked back), waits for the handlers. */
  stop(): Promise<void>;
}

/**
 * Pulls messages from a JetStream consumer for a fixed number of slots and hands each to
 * `handle` as it arrives. It never holds more than it has free slots (`requested + busy <=
 * slots`): the replicas sharing a consumer split its work, and no replica sits on jobs that
 * an idle one could do, which a prefetching consume() would. Freed slots are asked for
 * together in one fetch (one subscription for all of them), and fetches may overlap, so a
 * fetch still waiting for its last messages does not keep new slots idle.
 */
export function startPullDispatcher({ consumer, slots, handle, logger }: PullDispatcherOptions): PullDispatcher {
  let requested = 0;
  let busy = 0;
  let stopping = false;
  let pullScheduled = false;
  const stopped = new AbortController();
  const open = new Set<ConsumerMessages>();
  /** Fetch loops and handlers, for stop() to wait on. */
  const running = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    running.add(work);
    const done = () => running.delete(work);
    work.then(done, done);
  };

  const pull = () => {
    const free = slots - busy - requested;
    if (stopping || free <= 0) return;
    requested += free;
    track(fetchInto(free));
  };
  // Slots freed in one turn of the event loop (the acks after one shared flush) are asked for in one fetch.
  const schedulePull = () => {
    if (pullScheduled || stopping) return;
    pullScheduled = true;
    setImmediate(() => {
      pullScheduled = false;
      pull();
    });
  };

  const dispatch = (msg: JsMsg) => {
    busy++;
    track(
      handle(msg)
        .catch((err: unknown) => logger.error({ err, seq: msg.seq }, "job could not be answered"))
        .finally(() => {
          busy--;
          schedulePull();
        }),
    );
  };

  const fetchInto = async (size: number): Promise<void> => {
    let delivered = 0;
    let failed = false;
    try {
      const messages = await consumer.fetch({ max_messages: size, expires: PULL_EXPIRES_MS });
      open.add(messages);
      if (stopping) messages.stop();
      try {
        for await (const msg of messages) {
          delivered++;
          requested--;
          // Delivered after stop() began: back to the queue for another worker at once.
          if (stopping) msg.nak();
          else dispatch(msg);
        }
      } finally {
        open.delete(messages);
      }
    } catch (err) {
      if (!stopping) {
        failed = true;
        logger.warn({ err }, "pulling jobs failed: retrying");
      }
    }
    // The slots this fetch asked for and got nothing on: expired, or the pull failed.
    if (failed) await sleep(PULL_RETRY_MS, undefined, { signal: stopped.signal }).catch(() => {});
    requested -= size - delivered;
    schedulePull();
  };

  pull();
  return {
    busy: () => busy,
    async stop() {
      stopping = true;
      stopped.abort();
      // The server drops a pull whose inbox has no subscriber when it next has a message for
      // it, so closing a pull here does not strand jobs on a request nobody reads.
      for (const messages of open) messages.stop();
      while (running.size > 0) await Promise.allSettled(running);
    },
  };
}
