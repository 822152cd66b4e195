import { parseArgs } from "node:util";
import { DEFAULT_DRIFT_THRESHOLDS, type DriftThresholds } from "@adrank/eval-stats";

/** A bad flag: printed with the usage, exit 2. */
export class DriftUsageError extends Error {
  override name = "DriftUsageError";
}

export interface DriftOptions {
  thresholds: DriftThresholds;
  json: boolean;
  help: boolean;
}

export function driftUsage(): string {
  return [
    "usage: npm run drift -- [--min-rho <r>] [--max-mean-change <d>] [--json]",
    "  Ranks the fixed reference batch through the API at ADRANK_URL with DRIFT_API_KEY, stores the run",
    "  in DATABASE_URL and compares it with the last run of the same batch.",
    `  --min-rho <r>           warn when Spearman's rho of the scores falls below r (default ${DEFAULT_DRIFT_THRESHOLDS.minRho})`,
    `  --max-mean-change <d>   warn when the mean absolute score change exceeds d (default ${DEFAULT_DRIFT_THRESHOLDS.maxMeanChange})`,
    "  --json                  print the report as JSON",
    "  exit 0: nothing moved (or a baseline was stored); 3: warned; 1: error; 2: bad flag or setting",
  ].join("\n");
}

function numberFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max) throw new DriftUsageError(`--${name} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** The command line's flags; throws a DriftUsageError for an unknown flag or a bad value. */
export function parseDriftOptions(args: readonly string[]): DriftOptions {
  let values: { "min-rho"?: string; "max-mean-change"?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { "min-rho": { type: "string" }, "max-mean-change": { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new DriftUsageError(err instanceof Error ? err.message : String(err));
  }
  return {
    thresholds: {
      minRho: numberFlag("min-rho", values["min-rho"], DEFAULT_DRIFT_THRESHOLDS.minRho, -1, 1),
      maxMeanChange: numberFlag("max-mean-change", values["max-mean-change"], DEFAULT_DRIFT_THRESHOLDS.maxMeanChange, 0, 4),
    },
    json: values.json ?? false,
    help: values.help ?? false,
  };
}
