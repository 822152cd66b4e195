import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { REQUEST_RETENTION_DAYS, type RequestOperation } from "@adrank/contracts";
import type { RequestSummary, RequestView } from "@adrank/db/repositories";
import type { Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

/** Rows per page of the history; the next page starts before the last row's time. */
export const REQUESTS_PAGE_SIZE = 50;

/** The history's query string (exported for test/security/regex-linear-time.unit.spec.ts). */
export const RequestsPage = z.object({ before: z.iso.datetime({ offset: true }).optional() });

// Side by side, each asset counts once per audience (the API's own status says the same).
const progressOf = (r: { operation: RequestOperation; progressDone: number; progressTotal: number }) => ({
  done: r.progressDone,
  total: r.progressTotal,
  unit: r.operation === "pairwise" ? ("pairs" as const) : ("assets" as const),
});

const summaryView = (r: RequestSummary) => ({
  requestId: r.requestId,
  operation: r.operation,
  mode: r.mode,
  state: r.state,
  status: r.status,
  progress: progressOf(r),
  createdAt: r.createdAt,
  finishedAt: r.finishedAt,
  webhookState: r.webhookState,
});

const detailView = (r: RequestView) => ({
  requestId: r.requestId,
  operation: r.operation,
  mode: r.mode,
  state: r.state,
  status: r.result?.status ?? null,
  progress: progressOf(r),
  createdAt: r.createdAt,
  finishedAt: r.finishedAt,
  /** Running, but its gateway stopped renewing: another one takes it over. */
  stalled: r.abandoned,
  error: r.error,
  webhook: r.webhook && { url: r.webhook.url, state: r.webhook.state, attempts: r.webhook.attempts },
  // The stored text itself, not a re-serialised object: what GET /api/v1/requests/{id} answers.
  resultBody: r.state === "succeeded" ? (r.result?.body ?? null) : null,
});

/** A file name that survives any id the gateway recorded. */
const fileName = (r: RequestView) => `adrank-${r.operation}-${r.requestId.replace(/[^\w-]/g, "_")}.json`;

/** The account's rank, rank-across-audiences and pairwise requests, whichever key made them, and each one's result. */
export async function requestRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  app.addHook("preHandler", requireUser);

  app.get("/requests", async (request, reply) => {
    const page = RequestsPage.safeParse(request.query);
    if (!page.success) return reply.code(422).send({ error: "`before` must be a date and time (ISO 8601).", field: "before" });
    const before = page.data.before === undefined ? undefined : new Date(page.data.before);
    const rows = await repos.requests.listForAccount(request.user!.accountId, { limit: REQUESTS_PAGE_SIZE, ...(before ? { before } : {}) });
    const last = rows.at(-1);
    return {
      requests: rows.map(summaryView),
      nextBefore: rows.length === REQUESTS_PAGE_SIZE && last ? last.createdAt : null,
      retentionDays: REQUEST_RETENTION_DAYS,
    };
  });

  app.get<{ Params: { id: string } }>("/requests/:id", async (request, reply) => {
    const found = await repos.requests.find(request.params.id, request.user!.accountId);
    return found ? { ...detailView(found), retentionDays: REQUEST_RETENTION_DAYS } : reply.code(404).send({ error: "No such request." });
  });

  // The result as a file: the exact bytes stored, so the download equals what the API answers.
  app.get<{ Params: { id: string } }>("/requests/:id/result", async (request, reply) => {
    const found = await repos.requests.find(request.params.id, request.user!.accountId);
    if (!found) return reply.code(404).send({ error: "No such request." });
    if (found.state !== "succeeded" || !found.result) return reply.code(404).send({ error: "This request has no result yet." });
    return reply.type("application/json; charset=utf-8").header("content-disposition", `attachment; filename="${fileName(found)}"`).send(found.result.body);
  });
}
