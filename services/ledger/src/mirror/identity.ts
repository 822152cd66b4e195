/**
 * Whether the LEDGER stream found on the NATS servers is the one a Postgres mirror follows.
 * Pure: the mirror's row and the stream's info come in, a verdict goes out.
 */

/** What the mirror recorded about the stream it follows. */
export interface MirrorIdentity {
  stream: string;
  streamCreated: Date;
  /** Highest sequence projected so far. */
  lastSeq: number;
}

/** The stream as the servers describe it now. */
export interface StreamIdentity {
  name: string;
  created: Date;
  lastSeq: number;
}

export type MirrorProblemKind = "recreated" | "behind" | "diverged";

export interface MirrorProblem {
  kind: MirrorProblemKind;
  /** One sentence for readiness, logs and the operator command: what is wrong and what to run. */
  sentence: string;
}

const WHAT_NEXT = "Projection and billing are paused; see docs/ledger-mirror.md (`npm run ledger-mirror -- status`) to rebuild the mirror from the stream or re-seed the stream from the mirror.";

/**
 * A stream recreated under the same name (NATS lost its data, or someone deleted it) has a
 * new creation time; a stream that lost acknowledged writes ends below what was projected.
 * Either way the stream is not the history in Postgres, and projecting it would mix two
 * histories. Creation times are compared to the millisecond (Postgres keeps microseconds,
 * NATS reports nanoseconds).
 *
 * @example
 * judgeStream({ stream: "LEDGER", streamCreated, lastSeq: 40 }, { name: "LEDGER", created, lastSeq: 12 })?.kind; // "behind"
 */
export function judgeStream(mirror: MirrorIdentity, stream: StreamIdentity): MirrorProblem | null {
  if (Math.floor(mirror.streamCreated.getTime()) !== Math.floor(stream.created.getTime())) {
    return {
      kind: "recreated",
      sentence: `The LEDGER stream "${stream.name}" was created at ${stream.created.toISOString()}, but the mirror in PostgreSQL follows the stream of that name created at ${mirror.streamCreated.toISOString()}: the stream was recreated or reset. ${WHAT_NEXT}`,
    };
  }
  if (stream.lastSeq < mirror.lastSeq) {
    return {
      kind: "behind",
      sentence: `The LEDGER stream "${stream.name}" ends at sequence ${stream.lastSeq}, but the mirror in PostgreSQL has already projected sequence ${mirror.lastSeq}: the stream lost acknowledged events. ${WHAT_NEXT}`,
    };
  }
  return null;
}

/** The stream delivered an event under a sequence the mirror already holds with other content. */
export function divergedAt(stream: string, seq: number, accountId: string): MirrorProblem {
  return {
    kind: "diverged",
    sentence: `The LEDGER stream "${stream}" delivered an event at sequence ${seq} (account ${accountId}) that differs from the event the mirror holds at that sequence: the stream is not the one mirrored. ${WHAT_NEXT}`,
  };
}
