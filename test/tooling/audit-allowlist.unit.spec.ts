import { describe, expect, it } from "vitest";
import { advisoriesOf, judgeAdvisories, type Advisory, type AllowlistEntry } from "../../scripts/audit/allowlist.ts";

const advisory = (over: Partial<Advisory> = {}): Advisory => ({ package: "tar", advisory: "https://github.com/advisories/GHSA-aaaa", severity: "high", title: "Arbitrary file write", ...over });
const entry = (over: Partial<AllowlistEntry> = {}): AllowlistEntry => ({ package: "tar", advisory: "https://github.com/advisories/GHSA-aaaa", reason: "only used at build time on our own files", expires: "2026-12-31", ...over });

describe("dependency audit allowlist", () => {
  it("fails on a high or critical advisory nobody accepted, and ignores low and moderate ones", () => {
    const verdict = judgeAdvisories([advisory(), advisory({ package: "minimist", severity: "critical" }), advisory({ package: "debug", severity: "moderate" })], [], "2026-11-23");
    expect(verdict.problems).toEqual([
      "high tar: Arbitrary file write (https://github.com/advisories/GHSA-aaaa)",
      "critical minimist: Arbitrary file write (https://github.com/advisories/GHSA-aaaa)",
    ]);
  });

  it("accepts an advisory covered by an unexpired entry for the same package and advisory", () => {
    const verdict = judgeAdvisories([advisory()], [entry()], "2026-11-23");
    expect(verdict.problems).toEqual([]);
    expect(verdict.allowed).toEqual([{ advisory: advisory(), reason: "only used at build time on our own files" }]);
    expect(judgeAdvisories([advisory({ advisory: "https://github.com/advisories/GHSA-bbbb" })], [entry()], "2026-11-23").problems).toHaveLength(1);
  });

  it("stops covering on the day after expiry and reports the expired entry itself", () => {
    expect(judgeAdvisories([advisory()], [entry()], "2026-12-31").problems).toEqual([]);
    const after = judgeAdvisories([advisory()], [entry()], "2027-01-01").problems;
    expect(after).toHaveLength(2);
    expect(after[0]).toMatch(/expired on 2026-12-31/);
    expect(judgeAdvisories([], [entry()], "2027-01-01").problems).toHaveLength(1);
  });

  it("reads the advisories of an npm audit v2 report, skipping the packages they only come through", () => {
    const report = {
      vulnerabilities: {
        tar: { via: [{ url: "https://github.com/advisories/GHSA-aaaa", title: "Arbitrary file write", severity: "high" }] },
        "some-cli": { via: ["tar"] },
      },
    };
    expect(advisoriesOf(report)).toEqual([advisory()]);
  });
});
