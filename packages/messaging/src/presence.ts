import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { Presence } from "@adrank/bus-contracts";
import { decodeJson, encodeJson } from "./json.ts";

/**
 * Answers presence questions on `subject` in a queue group, so any one replica answers.
 * A JetStream consumer can exist with no process behind it; a reply here proves that a
 * worker is running now.
 */
export function answerPresence(nc: NatsConnection, subject: string, presence: () => Presence): Subscription {
  return nc.subscribe(subject, {
    queue: subject,
    callback: (_err, msg) => {
      msg.respond(encodeJson(presence()));
    },
  });
}

/** Asks whether any worker answers on `subject`; null when none does within `timeoutMs`. */
export async function askPresence(nc: NatsConnection, subject: string, timeoutMs: number): Promise<Presence | null> {
  try {
    const reply = await nc.request(subject, encodeJson({}), { timeout: timeoutMs });
    return Presence.parse(decodeJson(reply.data));
  } catch {
    return null;
  }
}
