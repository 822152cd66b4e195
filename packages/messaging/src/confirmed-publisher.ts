import type { NatsConnection } from "@nats-io/transport-node";

/** Publishes a message and resolves once the server has it. */
export type ConfirmedPublish = (subject: string, data: Uint8Array) => Promise<void>;

/**
 * Publishes messages in batches that share one flush (PING/PONG round trip) each: the
 * messages handed over during one turn of the event loop are published together at its end
 * with a flush behind them, and each caller resolves when that flush returns. The PING goes
 * out behind the batch in the same socket write, and the server answers PONG only after
 * processing what came before it, so a resolved message has reached the server. Under load
 * that is one write and one round trip for many messages instead of one of each per message.
 */
export function createConfirmedPublisher(nc: Pick<NatsConnection, "publish" | "flush">): ConfirmedPublish {
  type Pending = { subject: string; data: Uint8Array; resolve(): void; reject(err: unknown): void };
  let batch: Pending[] = [];

  const publishBatch = () => {
    const published: Pending[] = [];
    for (const p of batch) {
      try {
        nc.publish(p.subject, p.data);
        published.push(p);
      } catch (err) {
        p.reject(err); // a closed connection: this message never left
      }
    }
    batch = [];
    if (published.length === 0) return;
    // Started after every publish above: its PONG confirms all of them.
    nc.flush().then(
      () => published.forEach((p) => p.resolve()),
      (err: unknown) => published.forEach((p) => p.reject(err)),
    );
  };

  return (subject, data) =>
    new Promise<void>((resolve, reject) => {
      if (batch.length === 0) setImmediate(publishBatch);
      batch.push({ subject, data, resolve, reject });
    });
}
