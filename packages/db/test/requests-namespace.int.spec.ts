import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestsRepository } from "../src/repositories/requests.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Two deployments (ADRANK_NAMESPACEs) may share one database. A request is taken over only by
// its own deployment: another's gateways would run it against the wrong ledger and workers.
describe("requests of two namespaces on one database", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("reqns");
  });
  afterAll(async () => t?.destroy());

  const startAsync = async (namespace: string) => {
    const requestId = randomUUID();
    const claim = await requestsRepository(t.db).start(
      { requestId, namespace, accountId: "acct_ns", keyId: "key_ns", operation: "rank", mode: "async", fingerprint: "f", progressTotal: 1, leaseOwner: `dead-${namespace}`, leaseMs: 1_000, requestBody: "{}", acceptedBody: "{}" },
      null,
      24,
    );
    expect(claim.kind).toBe("claimed");
    // Its owner died: the lease ran out.
    await t.db.updateTable("api_requests").set({ lease_expires_at: sql<Date>`now() - interval '1 second'` }).where("request_id", "=", requestId).execute();
    return requestId;
  };

  it("takes over only its own namespace's abandoned requests", async () => {
    const repo = requestsRepository(t.db);
    const a = await startAsync("alpha");
    const b = await startAsync("beta");
    expect(await repo.takeOver(a, "beta-gw", 5_000, "beta")).toBeNull();
    const taken = await repo.takeOverAbandonedAsync("beta-gw", 5_000, "beta");
    expect(taken?.requestId).toBe(b);
    expect(await repo.takeOverAbandonedAsync("beta-gw", 5_000, "beta")).toBeNull();
    const alpha = await repo.takeOverAbandonedAsync("alpha-gw", 5_000, "alpha");
    expect(alpha).toMatchObject({ requestId: a, attempt: 2 });
  });
});
