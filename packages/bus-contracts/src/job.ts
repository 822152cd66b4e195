import { z } from "zod";

/** The kinds of work on the JOBS stream; each has its subject in the topology. */
export type JobKind = "score" | "vote" | "refine";

/** What every job carries, whatever its kind. */
export const JobEnvelope = z.object({
  requestId: z.string().uuid(),
  jobId: z.string().min(1).max(128),
  /** Epoch ms; a worker drops the job after it. */
  deadline: z.number().int(),
  /**
   * The NATS subject the worker publishes the result on: the requester's result router.
   * Plain tokens only, no wildcards; the worker also checks that it lies under the
   * deployment's results subjects. Absent (jobs from older gateways): the per-request subject.
   */
  replyTo: z
    .string()
    .max(512)
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/)
    .optional(),
});
export type JobEnvelope = z.infer<typeof JobEnvelope>;

/** A failed job's outcome: a sentence a user can read (it ends up in the response). */
export const JobFailure = z.object({ ok: z.literal(false), error: z.string() });

/**
 * The result message of a job kind: which job, which worker answered (for traces and fault
 * tests), and the outcome: `{ ok: true, … }` as `success` says, or a JobFailure.
 */
export function jobResult<S extends z.ZodObject<{ ok: z.ZodLiteral<true> }>>(success: S) {
  return z.object({
    requestId: z.string().uuid(),
    jobId: z.string(),
    worker: z.string(),
    outcome: z.discriminatedUnion("ok", [success, JobFailure]),
  });
}
