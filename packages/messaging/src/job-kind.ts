/** The kinds of work on the JOBS stream; each has its subject in the topology. */
export type JobKind = "score" | "vote" | "refine";
