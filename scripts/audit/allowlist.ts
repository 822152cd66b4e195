/** One accepted advisory: why it does not affect us, and until when that judgement holds. */
export interface AllowlistEntry {
  package: string;
  /** The advisory's URL as npm audit reports it (https://github.com/advisories/GHSA-…). */
  advisory: string;
  reason: string;
  /** YYYY-MM-DD: after this day the entry covers nothing and is itself reported. */
  expires: string;
}

export interface Advisory {
  package: string;
  advisory: string;
  severity: "low" | "moderate" | "high" | "critical";
  title: string;
}

export interface AuditVerdict {
  /** High and critical advisories an unexpired entry covers, with the entry's reason. */
  allowed: Array<{ advisory: Advisory; reason: string }>;
  /** What fails the audit: uncovered high or critical advisories and expired entries. */
  problems: string[];
}

const BLOCKING = new Set(["high", "critical"]);

/** Judges an audit's advisories against the allowlist on `today` (YYYY-MM-DD). */
export function judgeAdvisories(advisories: Advisory[], entries: AllowlistEntry[], today: string): AuditVerdict {
  const verdict: AuditVerdict = { allowed: [], problems: [] };
  for (const e of entries) if (e.expires < today) verdict.problems.push(`allowlist entry for ${e.package} (${e.advisory}) expired on ${e.expires}: review it`);
  for (const a of advisories) {
    if (!BLOCKING.has(a.severity)) continue;
    const entry = entries.find((e) => e.package === a.package && e.advisory === a.advisory && e.expires >= today);
    if (entry) verdict.allowed.push({ advisory: a, reason: entry.reason });
    else verdict.problems.push(`${a.severity} ${a.package}: ${a.title} (${a.advisory})`);
  }
  return verdict;
}

/** The advisories of `npm audit --json` (v2 report), one per package and advisory. */
export function advisoriesOf(report: { vulnerabilities?: Record<string, { via: Array<string | { url?: string; title?: string; severity?: string }> }> }): Advisory[] {
  const out: Advisory[] = [];
  for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
    for (const via of v.via) {
      // A string names the dependency the advisory comes through; it is reported under that package.
      if (typeof via === "string") continue;
      out.push({ package: name, advisory: via.url ?? "unknown", severity: (via.severity ?? "low") as Advisory["severity"], title: via.title ?? "" });
    }
  }
  return out;
}
