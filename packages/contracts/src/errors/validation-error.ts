import type { z } from "zod";
import type { ErrorResponse } from "./error-response.ts";
import { formatFieldPath } from "./field-path.ts";

export interface HttpError {
  status: 400 | 422;
  body: ErrorResponse;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
};

/** 400: the body is not JSON, or not sent as JSON (DESIGN: Contract decisions). */
export function badRequest(error: string): HttpError {
  return { status: 400, body: { error } };
}

/**
 * The one mapping from a failed parse to the spec's error body: 422 with `field`, the path of
 * the first offending value, and `error`, one sentence a person understands. `input` is the
 * body that was parsed; it tells a missing value from a wrong one.
 */
export function validationError(error: z.ZodError, input: unknown): HttpError {
  const first = error.issues[0];
  if (!first) return { status: 422, body: { error: "The request body is invalid." } };
  const issue = closestUnionBranch(first, input);
  if (issue.code === "unrecognized_keys") {
    const field = formatFieldPath(shortPath([...issue.path, issue.keys[0]!]));
    return { status: 422, body: { error: `${field} is not an allowed property.`, field } };
  }
  if (issue.code === "invalid_key") {
    // A record's key failed (copy_context keys are bounded): name the record, not the key.
    const parent = formatFieldPath(shortPath(issue.path.slice(0, -1)));
    const tooLong = issue.issues.find((i) => i.code === "too_big");
    const error = tooLong ? `${parent} has a key longer than ${String((tooLong as { maximum: unknown }).maximum)} characters.` : `${parent} has a key that is not allowed.`;
    return { status: 422, body: { error, field: parent } };
  }
  const field = formatFieldPath(shortPath(issue.path));
  if (field === "") {
    return { status: 422, body: { error: "The request body must be a JSON object." } };
  }
  return { status: 422, body: { error: sentence(field, issue, valueAt(input, issue.path)), field } };
}

/**
 * A value that matches no form of a union (an audience that is neither `{audience_id}` nor an
 * inline audience) is reported by the form it comes closest to: the one with the fewest
 * structural misses (unknown properties, missing required ones), so a bad demographics value
 * is named as such instead of "is invalid". When two forms are equally close the union
 * itself is named.
 */
function closestUnionBranch(issue: z.core.$ZodIssue, input: unknown): z.core.$ZodIssue {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const value = valueAt(input, issue.path);
  const structural = (branch: readonly z.core.$ZodIssue[]) =>
    branch.filter((i) => (i.code === "unrecognized_keys" && i.path.length === 0) || (i.code === "invalid_type" && i.path.length === 1 && valueAt(value, i.path) === undefined)).length;
  // Not an object at all: every form says so first.
  const wrongType = issue.errors[0]![0];
  if (wrongType?.code === "invalid_type" && wrongType.path.length === 0) return { ...wrongType, path: issue.path };
  const ranked = issue.errors.map((branch) => ({ branch, misses: structural(branch) })).sort((a, b) => a.misses - b.misses);
  const best = ranked[0]!;
  if (ranked.length > 1 && ranked[1]!.misses === best.misses) return best.misses > 0 ? { ...issue, message: "mixes the properties of its allowed forms; send exactly one of them" } : issue;
  const inner = best.branch[0];
  return inner ? closestUnionBranch({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue, input) : issue;
}

/** Parses a JSON value with a contract schema: the value, or the error the client gets. */
// A hostile property name may be megabytes long: an error names it by its start only.
const shortPath = (path: PropertyKey[]): PropertyKey[] => path.map((p) => (typeof p === "string" && p.length > 64 ? `${p.slice(0, 64)}…` : p));

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): { ok: true; value: z.output<S> } | { ok: false; error: HttpError } {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: validationError(parsed.error, input) };
}

function sentence(field: string, issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `${field} is required.`;
      // 1e400 parses to Infinity, which zod refuses as "not a number": say what is wrong with it.
      if (issue.expected === "number" && typeof value === "number") return `${field} must be a finite number.`;
      return `${field} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}${value === null ? ", not null" : ""}.`;
    case "too_small":
      if (issue.origin === "array") return `${field} must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}.`;
      if (issue.origin === "string") return Number(issue.minimum) === 1 ? `${field} must not be empty.` : `${field} must be at least ${issue.minimum} characters long.`;
      return `${field} must be at least ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "array") return `${field} must have at most ${issue.maximum} items.`;
      if (issue.origin === "string") return `${field} must be at most ${issue.maximum} characters long.`;
      return `${field} must be at most ${issue.maximum}.`;
    case "invalid_value":
      return `${field} must be one of: ${issue.values.map((v) => String(v)).join(", ")}.`;
    case "invalid_format":
      // A pattern with its own message (e.g. metric names) says what is allowed; zod's default names the regex.
      if (issue.format === "regex" && !issue.message.startsWith("Invalid")) return `${field} ${issue.message}.`;
      return `${field} is not a valid ${issue.format}.`;
    case "custom":
      return /^[A-Z]/.test(issue.message) ? issue.message : `${field} ${issue.message}.`;
    case "invalid_key":
      return `${field} has a key that is not allowed.`;
    case "invalid_union":
      return issue.message.startsWith("Invalid") ? `${field} is invalid.` : `${field} ${issue.message}.`;
    case "invalid_element":
    case "not_multiple_of":
    case "unrecognized_keys":
      return `${field} is invalid.`;
    default: {
      const never: never = issue;
      return `${field} is invalid (${String((never as { code?: string }).code)}).`;
    }
  }
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    // Own properties only: a path segment named __proto__ must not walk the prototype chain.
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
