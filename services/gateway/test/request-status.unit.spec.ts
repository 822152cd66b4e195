import { describe, expect, it } from "vitest";
import { RequestStatus } from "@adrank/contracts";
import { requestStatusOf } from "../src/lifecycle/request-status.ts";

const view = {
  requestId: "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35",
  operation: "rank" as const,
  state: "running" as const,
  createdAt: new Date("2026-11-28T10:00:00.000Z"),
  finishedAt: null,
  progressDone: 0,
  progressTotal: 3,
  error: null,
  webhook: null,
};

describe("requestStatusOf", () => {
  it("says queued only while a request waits for a slot (MAX_BACKGROUND_REQUESTS)", () => {
    const waiting = requestStatusOf({ ...view, queued: true });
    expect(waiting).toMatchObject({ status: "running", queued: true, progress: { done: 0, total: 3, unit: "assets" } });
    expect(RequestStatus.parse(waiting)).toEqual(waiting);
    expect(requestStatusOf({ ...view, queued: false })).not.toHaveProperty("queued");
    expect(requestStatusOf(view)).not.toHaveProperty("queued");
    // A request that failed before it started is failed, not queued.
    expect(requestStatusOf({ ...view, queued: true, state: "failed", error: "x", finishedAt: new Date() })).not.toHaveProperty("queued");
  });
});
