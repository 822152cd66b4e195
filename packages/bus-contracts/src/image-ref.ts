import { z } from "zod";

/** A reference to a normalized image in the shared image store (see messaging's image-store.ts). */
export const ImageRef = z.object({
  /** sha256 hex of the normalized bytes: the object name in the store. */
  ref: z.string().regex(/^[a-f0-9]{64}$/),
  mime: z.enum(["image/jpeg", "image/png", "image/webp"]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type ImageRef = z.infer<typeof ImageRef>;
