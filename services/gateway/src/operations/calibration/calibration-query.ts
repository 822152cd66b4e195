import { CalibrationQuery, parseWith } from "@adrank/contracts";
import { BodyValidationError } from "../../errors/api-errors.ts";

const PARAMETERS = Object.keys(CalibrationQuery.shape);

/**
 * The query string of GET /api/v1/calibration: 422 naming the parameter when one is unknown
 * (a misspelt `metrics=` must not quietly answer for every metric) or its value is not allowed.
 */
export function parseCalibrationQuery(query: unknown): CalibrationQuery {
  const given = typeof query === "object" && query !== null ? Object.keys(query) : [];
  const unknown = given.find((name) => !PARAMETERS.includes(name));
  if (unknown !== undefined) {
    const field = unknown.length > 64 ? `${unknown.slice(0, 64)}…` : unknown;
    throw new BodyValidationError(`Unknown query parameter ${JSON.stringify(field)}; GET /api/v1/calibration takes ${PARAMETERS.join(" and ")}.`, field);
  }
  const parsed = parseWith(CalibrationQuery, query);
  if (parsed.ok) return parsed.value;
  throw new BodyValidationError(parsed.error.body.error, parsed.error.body.field);
}
