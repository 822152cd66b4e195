import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { imageBytesToDataUri, type RankInput } from "@adrank/sdk";
import { DriftError } from "./drift-error.ts";
import { SYNTHETIC_CREATIVES } from "./synthetic-set.ts";

// The drift watch's fixed batch: the three example creatives and the five synthetic ones, for
// one inline audience, goal purchase-intent, without close-pair refinement (a panel's votes
// would move scores for reasons of its own: the ranking must reflect the scores alone).

/** The repository (or the image's /app): examples/ lies here. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));

/** Where make-synthetic-set.ts writes the synthetic creatives, from the repository root. */
export const SYNTHETIC_SET_DIR = "examples/drift";

/** One creative of the batch: its asset id and its file, from the repository root. */
export interface ReferenceImage {
  id: string;
  path: string;
}

export const REFERENCE_IMAGES: readonly ReferenceImage[] = [
  ...["autumn-promo", "spring-sale", "summer-launch"].map((name) => ({ id: name, path: `examples/ads/${name}.png` })),
  ...SYNTHETIC_CREATIVES.map((c) => ({ id: `synthetic-${c.name}`, path: `${SYNTHETIC_SET_DIR}/${c.name}.png` })),
];

export const REFERENCE_AUDIENCE = {
  name: "Drift watch reference: urban commuters",
  description: "Working adults who buy everyday gear online, often on their phone during the commute, and compare prices before they buy.",
  demographics: { ageRange: "25-34", incomeLevel: "50k-75k", priceSensitivity: "high", shoppingIntent: "comparing" },
} as const;

/** The request the drift watch sends, and what identifies it. */
export interface ReferenceBatch {
  request: RankInput;
  /** sha256 (hex) of the request as sent, images included: a changed batch is a new baseline, never drift. */
  hash: string;
  assetIds: string[];
}

/**
 * The batch's request for these image bytes, with every setting written out (none left to a
 * server default that could change) and its hash.
 */
export function referenceBatchOf(images: ReadonlyArray<{ id: string; bytes: Uint8Array }>): ReferenceBatch {
  const request = {
    assets: images.map((image) => ({ url: imageBytesToDataUri(image.bytes), id: image.id })),
    audience: { ...REFERENCE_AUDIENCE, demographics: { ...REFERENCE_AUDIENCE.demographics } },
    goal: "purchase-intent",
    asset_type: "Advertisement",
    refine_close_pairs: false,
  } satisfies RankInput;
  const hash = createHash("sha256").update(JSON.stringify(request)).digest("hex");
  return { request, hash, assetIds: images.map((image) => image.id) };
}

/** Reads the batch's images under `root` (default: this repository or image). */
export async function loadReferenceBatch(root: string = REPOSITORY_ROOT): Promise<ReferenceBatch> {
  const images = await Promise.all(
    REFERENCE_IMAGES.map(async ({ id, path }) => {
      try {
        return { id, bytes: await readFile(join(root, path)) };
      } catch (err) {
        const reason = (err as { code?: unknown }).code === "ENOENT" ? "does not exist" : `cannot be read (${String(err)})`;
        throw new DriftError(`the reference image ${path} ${reason} under ${root}: the drift watch needs examples/ads and examples/drift beside services/`, { cause: err });
      }
    }),
  );
  return referenceBatchOf(images);
}
