import type { AnswerWarning } from "@adrank/sdk";
import { printable } from "./models-note.ts";

/** A server sentence on one terminal line: its line breaks and runs of spaces become one space, control characters "?". */
export const oneLine = (text: string): string => printable(text.replace(/\s+/g, " ").trim());

/**
 * The answer's validity warnings, one line each: "warning [batch_not_separated]: The 3 assets' …".
 * The message is printed whatever the code, so codes this CLI does not know still say what they mean.
 * None for an answer without warnings, or from a server older than them.
 */
export function warningLines(warnings: readonly AnswerWarning[] | undefined, models?: { simulated: boolean }): string[] {
  return warningsToShow(warnings, models).map((w) => `warning [${oneLine(w.code)}]: ${oneLine(w.message)}`);
}

/**
 * The warnings worth showing beside a models note: that note already says SIMULATED in its own
 * words when the sim answered, so the `simulated` warning would say it twice.
 */
export function warningsToShow(warnings: readonly AnswerWarning[] | undefined, models?: { simulated: boolean }): AnswerWarning[] {
  return (warnings ?? []).filter((w) => !(w.code === "simulated" && models?.simulated));
}
