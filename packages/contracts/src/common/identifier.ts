import { z } from "zod";
import { LIMITS } from "../vocabulary.ts";

// C0 controls, DEL and C1 controls: they break log lines, terminals and CSV exports downstream.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Caller-chosen ids: non-empty, bounded, printable; returned to the caller exactly as given. */
export const Identifier = z
  .string()
  .min(1)
  .max(LIMITS.idMaxChars)
  .refine((v) => !CONTROL.test(v) && v.isWellFormed(), { message: "must be printable text, without control characters or unpaired surrogates" });
