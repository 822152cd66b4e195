import { readFileSync } from "node:fs";

/** The CLI's version, from its package.json at run time, so a release needs no second edit. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}
