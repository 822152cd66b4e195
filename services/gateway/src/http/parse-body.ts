import type { z } from "zod";
import { badRequest, parseWith } from "@adrank/contracts";
import { BodyValidationError, MalformedBodyError } from "../errors/api-errors.ts";

/**
 * Parses a JSON body with a contracts schema, through the contracts' one mapping of a failed
 * parse (422 with `field`). No body at all is not JSON: 400.
 */
export function parseJsonBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined) throw new MalformedBodyError(badRequest("The request body is empty; send a JSON object with `Content-Type: application/json`.").body.error);
  const parsed = parseWith(schema, body);
  if (parsed.ok) return parsed.value;
  const { status, body: error } = parsed.error;
  if (status === 400) throw new MalformedBodyError(error.error);
  throw new BodyValidationError(error.error, error.field);
}
