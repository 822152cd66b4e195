import type { FastifyInstance } from "fastify";
import { keptEvaluationsRepository } from "@adrank/db/repositories";
import { askPresence } from "@adrank/messaging";
import { createKeptEvaluations, type KeptEvaluations } from "./kept-evaluations.ts";

/**
 * The app's one store of kept evaluations, shared by rank and rank/audiences: over the app's
 * database and namespace, asking the scorers' presence for their method key, its sweep of
 * expired evaluations started, and closed with the app (after in-flight writes end).
 */
export function openKeptEvaluations(app: FastifyInstance, opts: { ttlHours: number; presenceTimeoutMs: number }): KeptEvaluations {
  const { nc, topo } = app.bus;
  const kept = createKeptEvaluations({
    repo: keptEvaluationsRepository(app.db),
    namespace: topo.namespace,
    ttlHours: opts.ttlHours,
    askMethodKey: async () => (await askPresence(nc, topo.presence("scorer"), opts.presenceTimeoutMs))?.methodKey ?? null,
    log: app.log,
  });
  kept.start();
  app.addHook("onClose", () => kept.close());
  return kept;
}
