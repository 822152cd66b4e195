import { describe, expect, it } from "vitest";
import { inboxPrefix, NATS_USERS, servicePermissions, topology, type NatsUser, type SubjectPermissions } from "../src/index.ts";

/** NATS subject matching: `*` is one token, `>` one or more at the end. */
function matches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length || (p[i] !== "*" && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}
const mayPublish = (p: SubjectPermissions, subject: string) => p.publish.some((pattern) => matches(pattern, subject));
const maySubscribe = (p: SubjectPermissions, subject: string) => p.subscribe.some((pattern) => matches(pattern, subject));
const usersWho = (perms: Record<NatsUser, SubjectPermissions>, can: (p: SubjectPermissions) => boolean) => NATS_USERS.filter((u) => can(perms[u]));

describe("servicePermissions", () => {
  const topo = topology("ns1");
  const prod = servicePermissions(topo, { consoleSignupGrants: false });
  const dev = servicePermissions(topo, { consoleSignupGrants: true });

  it("lets only the admin tools grant credits, and the console too when it grants sign-up credits", () => {
    expect(usersWho(prod, (p) => mayPublish(p, topo.ledgerRpc.grant))).toEqual(["admin"]);
    expect(usersWho(dev, (p) => mayPublish(p, topo.ledgerRpc.grant))).toEqual(["dashboard", "admin"]);
    // The console can do nothing else on NATS.
    expect(dev.dashboard.publish).toEqual([topo.ledgerRpc.grant]);
    expect(prod.dashboard.publish).toEqual([]);
  });

  it("lets only the ledger answer the ledger's requests or read and write its events", () => {
    for (const subject of Object.values(topo.ledgerRpc)) expect(usersWho(prod, (p) => maySubscribe(p, subject)), subject).toEqual(["ledger"]);
    expect(usersWho(prod, (p) => maySubscribe(p, topo.ledgerAccount("acct_1")))).toEqual([]);
    // The admin's mirror commands re-seed the stream; nobody else writes it.
    expect(usersWho(prod, (p) => mayPublish(p, topo.ledgerAccount("acct_1")))).toEqual(["ledger", "admin"]);
    expect(usersWho(prod, (p) => mayPublish(p, topo.ledgerRpc.reserve))).toEqual(["gateway"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.STREAM.DELETE.${topo.streams.ledger.name}`))).toEqual(["admin"]);
  });

  it("keeps jobs readable only through each worker's own consumer: no core subscription, no other consumer", () => {
    const jobs = topo.streams.jobs.name;
    for (const kind of ["score", "vote", "refine"] as const) expect(usersWho(prod, (p) => maySubscribe(p, topo.jobs[kind]))).toEqual([]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.CONSUMER.CREATE.${jobs}.snoop.${topo.jobs.score}`))).toEqual([]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.CONSUMER.MSG.NEXT.${jobs}.${topo.consumer("scorer")}`))).toEqual(["scorer"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.CONSUMER.CREATE.${jobs}.${topo.consumer("panel-voter")}.${topo.jobs.vote}`))).toEqual(["panel-voter"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.ACK.${jobs}.${topo.consumer("refinement")}.1.2.3.4.5`))).toEqual(["refinement"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.STREAM.MSG.GET.${jobs}`))).toEqual([]);
  });

  it("lets the gateway and the refinement service publish the jobs they hand out, and no one else", () => {
    expect(usersWho(prod, (p) => mayPublish(p, topo.jobs.score))).toEqual(["gateway"]);
    expect(usersWho(prod, (p) => mayPublish(p, topo.jobs.refine))).toEqual(["gateway"]);
    expect(usersWho(prod, (p) => mayPublish(p, topo.jobs.vote))).toEqual(["gateway", "refinement"]);
  });

  it("lets only the workers publish results, and only those who wait for results read them", () => {
    const result = topo.result("req-1", "job-1");
    expect(usersWho(prod, (p) => mayPublish(p, result))).toEqual(["scorer", "panel-voter", "refinement"]);
    expect(usersWho(prod, (p) => maySubscribe(p, topo.resultsWildcard("req-1")))).toEqual(["gateway", "refinement"]);
    // A result router's subjects: one subscription per process, results published to a job's replyTo.
    expect(usersWho(prod, (p) => mayPublish(p, topo.routedResult("router-1", "job-1")))).toEqual(["scorer", "panel-voter", "refinement"]);
    expect(usersWho(prod, (p) => maySubscribe(p, topo.routedResultsWildcard("router-1")))).toEqual(["gateway", "refinement"]);
    expect(usersWho(prod, (p) => maySubscribe(p, topo.resultsPerRequest))).toEqual(["gateway", "refinement"]);
  });

  it("lets the gateway ask each worker service's presence, and each service answer only its own", () => {
    for (const service of ["scorer", "panel-voter", "refinement"] as const) {
      expect(usersWho(prod, (p) => mayPublish(p, topo.presence(service))), service).toEqual(["gateway"]);
      expect(usersWho(prod, (p) => maySubscribe(p, topo.presence(service))), service).toEqual([service]);
    }
  });

  it("lets only the gateway cancel a run, and the workers hear every run's cancel", () => {
    expect(usersWho(prod, (p) => mayPublish(p, topo.cancel("req-1")))).toEqual(["gateway"]);
    expect(usersWho(dev, (p) => mayPublish(p, topo.cancel("req-1")))).toEqual(["gateway"]);
    // The subscription is the wildcard itself: a permission for single runs would refuse it.
    expect(usersWho(prod, (p) => p.subscribe.includes(topo.cancelAll))).toEqual(["scorer", "panel-voter", "refinement"]);
    expect(usersWho(prod, (p) => maySubscribe(p, topo.cancel("req-1")))).toEqual(["scorer", "panel-voter", "refinement"]);
  });

  it("gives every user its own inbox and no other: nobody reads another's replies or pulled jobs", () => {
    for (const user of NATS_USERS) {
      expect(maySubscribe(prod[user], `${inboxPrefix(user)}.abc.1`), user).toBe(true);
      expect(maySubscribe(prod[user], "_INBOX.abc"), user).toBe(false);
      for (const other of NATS_USERS.filter((o) => o !== user)) expect(maySubscribe(prod[user], `${inboxPrefix(other)}.abc`), `${user} reads ${other}'s`).toBe(false);
      // Replies go out through allow_responses, never through a publish permission on inboxes.
      expect(prod[user].publish.some((s) => s.startsWith("_INBOX")), user).toBe(false);
    }
    expect(usersWho(prod, (p) => p.respond)).toEqual(["ledger", "scorer", "panel-voter", "refinement"]);
  });

  it("reads images only as whole-chunk reads, and writes them only from the gateway", () => {
    const bucket = topo.imageBucket;
    expect(usersWho(prod, (p) => mayPublish(p, `$O.${bucket}.C.nuid1`))).toEqual(["gateway"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.CONSUMER.CREATE.OBJ_${bucket}.oc_1.$O.${bucket}.C.nuid1`))).toEqual(["scorer", "panel-voter"]);
    expect(usersWho(prod, (p) => mayPublish(p, `$JS.API.STREAM.PURGE.OBJ_${bucket}`))).toEqual(["gateway"]);
  });

  it("grants no one a full wildcard, and derives every subject from the namespace", () => {
    for (const user of NATS_USERS) {
      for (const s of [...prod[user].publish, ...prod[user].subscribe]) {
        expect(s, user).not.toMatch(/^(>|\*(\.>)?|\$JS\.API\.>|\$JS\.>)$/);
        if (!s.startsWith("$JS.API.INFO") && !s.startsWith("_INBOX.")) expect(s, `${user}: ${s}`).toMatch(/ns1/);
      }
    }
    const plain = servicePermissions(topology(""), { consoleSignupGrants: false });
    expect(plain.gateway.publish).toContain("jobs.score");
    expect(plain.scorer.publish).toContain("$JS.API.CONSUMER.CREATE.JOBS.scorer.jobs.score");
  });
});
