import { z } from "zod";

/**
 * Free text that may be stored in PostgreSQL: bounded, and without NUL, which a text column
 * cannot hold (the insert would fail as a 500 instead of a 422 naming the field).
 */
export const StoredText = (maxChars: number, minChars = 0) =>
  z
    .string()
    .min(minChars)
    .max(maxChars)
    .refine((v) => !v.includes("\u0000"), { message: "must not contain NUL characters" });
