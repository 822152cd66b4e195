import type { z } from "zod";
import { envInt, WorkerEnv } from "@adrank/runtime";

/** The job stream's variables: listed after a service's own, so a bad setting's lines keep their order. */
const JOBS_STREAM_FIELDS = {
  /** Replicas (1–5) of the JOBS stream, and of the image bucket where the service opens it, when this service creates them (3 in production). */
  JOBS_JETSTREAM_REPLICAS: envInt(1, 1, 5),
};

/**
 * The environment of a service that works on jobs (runWorkerService): the variables every
 * worker reads (NATS address, user, password and TLS files, namespace, health listener, log
 * level), then the service's `own` variables, then JOBS_JETSTREAM_REPLICAS.
 */
export function workerServiceEnv<S extends z.ZodRawShape>(own: S) {
  return WorkerEnv.extend(own).extend(JOBS_STREAM_FIELDS);
}

/** The variables runWorkerService reads itself; every service's config has them. */
export const WorkerServiceEnv = workerServiceEnv({});
export type WorkerServiceConfig = z.infer<typeof WorkerServiceEnv>;
