import { createHash } from "node:crypto";
import { imageNamesIn, restoreImages, tokenizeImages } from "@adrank/request-records";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../tables/index.ts";

const nameOf = (dataUri: string) => createHash("sha256").update(dataUri).digest("hex");

/**
 * Stores `text` with its long data URIs cut out: each image is written once (by content
 * hash) and linked to the request, so a request body and its response, or two requests with
 * the same image, share one copy. Returns the template to keep in the request's row.
 */
export async function storeWithImages(trx: Transaction<Database> | Kysely<Database>, requestId: string, text: string): Promise<string> {
  const { template, images } = cutOutImages(text);
  await saveImages(trx, requestId, images);
  return template;
}

/** `text` as a template and the images cut out of it, before anything is written. */
export function cutOutImages(text: string): { template: string; images: Map<string, string> } {
  return tokenizeImages(text, nameOf);
}

/** Writes images once each and links them to the request (whose row must exist). */
export async function saveImages(trx: Transaction<Database> | Kysely<Database>, requestId: string, images: ReadonlyMap<string, string>): Promise<void> {
  if (images.size > 0) {
    await trx
      .insertInto("stored_images")
      .values([...images].map(([name, data]) => ({ name, data })))
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    await trx
      .insertInto("api_request_images")
      .values([...images.keys()].map((image_name) => ({ request_id: requestId, image_name })))
      .onConflict((oc) => oc.columns(["request_id", "image_name"]).doNothing())
      .execute();
  }
}

/** The text a template was made from, byte for byte. */
export async function loadWithImages(db: Kysely<Database>, template: string): Promise<string> {
  const names = imageNamesIn(template);
  if (names.length === 0) return template;
  const rows = await db.selectFrom("stored_images").select(["name", "data"]).where("name", "in", names).execute();
  return restoreImages(template, new Map(rows.map((r) => [r.name, r.data])));
}
