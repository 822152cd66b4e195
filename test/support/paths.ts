import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const SERVICE_MAINS = {
  gateway: join(REPO_ROOT, "services/gateway/src/main.ts"),
  ledger: join(REPO_ROOT, "services/ledger/src/main.ts"),
  scorer: join(REPO_ROOT, "services/scorer/src/main.ts"),
  "panel-voter": join(REPO_ROOT, "services/panel-voter/src/main.ts"),
  refinement: join(REPO_ROOT, "services/refinement/src/main.ts"),
  dashboard: join(REPO_ROOT, "services/dashboard/src/main.ts"),
} as const;

export const ADMIN_CLI = join(REPO_ROOT, "services/gateway/src/admin/main.ts");

/** Services whose main file is missing from this checkout (they are built in other issues). */
export function missingServices(names: ReadonlyArray<keyof typeof SERVICE_MAINS>): string[] {
  return names.filter((n) => !existsSync(SERVICE_MAINS[n]));
}
