import { z } from "zod";
import { BaseEnv, envFlag } from "@adrank/runtime";

/** The drift watch's settings. DATABASE_URL as the admin command reads it; in Kubernetes the gateway's role. */
export const DriftEnv = BaseEnv.pick({ DATABASE_URL: true }).extend({
  /** The gateway's base URL, without /api/v1; the gateway listens on 8080 by default. */
  ADRANK_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).default("http://127.0.0.1:8080"),
  /** An API key of the operator account the runs are billed to (docs/deploy.md, "Drift watch"). */
  DRIFT_API_KEY: z.string({ error: "is required: an API key of the drift watch's operator account" }).min(1, "is required: an API key of the drift watch's operator account"),
  /** Sends the key over plain http:// to a host other than this machine: the gateway's in-cluster Service. */
  DRIFT_ALLOW_INSECURE_HTTP: envFlag,
});

export type DriftEnv = z.infer<typeof DriftEnv>;
