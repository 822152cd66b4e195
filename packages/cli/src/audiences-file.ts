import { readFile } from "node:fs/promises";
import { UsageError } from "./usage-error.ts";

const FORM = `[{"name": "…", "description": "…", "demographics": {…}}, {"audience_id": "aud_…"}]`;

/**
 * The items of an --audiences file: a JSON array of inline audiences and saved ones by id. Only
 * the file's shape is checked here; each item is checked with the API's own rules where the
 * audiences of all the flags come together (audience-list.ts), so that its place is named.
 */
export async function readAudiencesFile(path: string): Promise<unknown[]> {
  const text = await readFile(path, "utf8").catch(() => {
    throw new UsageError(`--audiences ${path}: no such file`);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--audiences ${path}: not valid JSON`);
  }
  if (!Array.isArray(parsed)) throw new UsageError(`--audiences ${path} must hold a JSON array of audiences: ${FORM}`);
  if (parsed.length === 0) throw new UsageError(`--audiences ${path} holds no audience; give ${FORM}`);
  return parsed;
}
