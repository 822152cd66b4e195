import { describe, expect, it } from "vitest";
import { createConfirmedPublisher } from "../src/confirmed-publisher.ts";

/** A connection that logs what it is asked to do; each flush waits until the test settles it. */
function fakeConnection() {
  const log: string[] = [];
  const flushes: Array<{ resolve(): void; reject(err: Error): void }> = [];
  let closed = false;
  return {
    log,
    flushes,
    close: () => (closed = true),
    nc: {
      publish(subject: string) {
        if (closed) throw new Error("connection closed");
        log.push(`publish ${subject}`);
      },
      flush() {
        log.push("flush");
        return new Promise<void>((resolve, reject) => flushes.push({ resolve, reject }));
      },
    },
  };
}
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const data = new Uint8Array();

describe("confirmed publisher", () => {
  it("sends the messages of one turn with one flush behind them and confirms them when it returns", async () => {
    const fake = fakeConnection();
    const publish = createConfirmedPublisher(fake.nc);
    const confirmed: string[] = [];
    for (const s of ["a", "b", "c"]) void publish(s, data).then(() => confirmed.push(s));
    await nextTurn();
    expect(fake.log).toEqual(["publish a", "publish b", "publish c", "flush"]);
    await nextTurn();
    expect(confirmed).toEqual([]);
    fake.flushes[0]!.resolve();
    await nextTurn();
    expect(confirmed).toEqual(["a", "b", "c"]);
  });

  it("does not let a flush already on its way confirm a message published after it", async () => {
    const fake = fakeConnection();
    const publish = createConfirmedPublisher(fake.nc);
    const confirmed: string[] = [];
    void publish("early", data).then(() => confirmed.push("early"));
    await nextTurn();
    void publish("late", data).then(() => confirmed.push("late"));
    await nextTurn();
    expect(fake.log).toEqual(["publish early", "flush", "publish late", "flush"]);
    fake.flushes[0]!.resolve();
    await nextTurn();
    expect(confirmed).toEqual(["early"]);
    fake.flushes[1]!.resolve();
    await nextTurn();
    expect(confirmed).toEqual(["early", "late"]);
  });

  it("fails the messages whose flush failed, and those that could not be published", async () => {
    const fake = fakeConnection();
    const publish = createConfirmedPublisher(fake.nc);
    const first = publish("a", data);
    await nextTurn();
    fake.flushes[0]!.reject(new Error("disconnected"));
    await expect(first).rejects.toThrow("disconnected");
    fake.close();
    await expect(publish("b", data)).rejects.toThrow("connection closed");
    expect(fake.flushes).toHaveLength(1);
  });
});
