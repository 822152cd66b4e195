import { checkModels, type ModelsToCheck } from "./check-models.ts";
import { formatCheckTable } from "./format-check-table.ts";
import type { ModelsReadiness } from "./models-readiness.ts";

export interface StartupCheckLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * ADRANK_MODELS_CHECK_AT_START: checks this service's models once at start and keeps the
 * service not ready until every check passes, checking again every `retryMs` meanwhile (a
 * provider that was down comes back; a wrong key stays wrong, and /readyz keeps saying why).
 * Returns a function that stops the re-checks.
 */
export function runStartupModelCheck(models: ModelsToCheck, readiness: ModelsReadiness, logger: StartupCheckLogger, options: { retryMs?: number; timeoutMs?: number } = {}): () => void {
  const retryMs = options.retryMs ?? 30_000;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    const rows = await checkModels(models, { signal: controller.signal, timeoutMs: options.timeoutMs ?? 30_000 });
    if (controller.signal.aborted) return;
    readiness.recordCheck(rows);
    const failed = rows.filter((r) => !r.ok);
    if (failed.length === 0) {
      logger.info({ checks: rows.map((r) => ({ role: r.role, model: r.model, latencyMs: r.latencyMs })) }, "model check passed: every configured model answered");
      return;
    }
    logger.error({ failed: failed.map((r) => ({ role: r.role, model: r.model, error: r.error, fix: r.fix })) }, `model check failed; not ready until it passes (checking again in ${Math.round(retryMs / 1000)} s)\n${formatCheckTable(rows)}`);
    timer = setTimeout(() => void round(), retryMs);
    timer.unref();
  };
  void round();
  return () => {
    controller.abort();
    if (timer) clearTimeout(timer);
  };
}
