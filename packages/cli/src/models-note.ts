import type { RankResponse } from "@adrank/sdk";

/** The summary's `models`; `undefined` from a server older than the field. */
export type ModelsUsed = RankResponse["summary"]["models"];

const SIM_PREFIX = "sim:";
const HOW_SIM_WORKS = "pixel statistics and copy heuristics";

/** A server-sent name made safe for a terminal: control characters (escape sequences) become "?". */
// eslint-disable-next-line no-control-regex
export const printable = (name: string) => name.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");

/**
 * What a response says about the models behind it: a line naming them, and a warning when the
 * offline sim model answered. Both null for a server that predates `summary.models`, so
 * the output then looks as it always did.
 *
 * @example
 * modelsNote({ generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: [], simulated: true }, "scores")
 * // { line: "Models: generators sim:sim-gen-a · embedder sim:sim-embed", warning: "SIMULATED: these scores come from …" }
 */
export function modelsNote(models: ModelsUsed | undefined, answers: "scores" | "votes"): { line: string | null; warning: string | null } {
  if (!models) return { line: null, warning: null };
  // Read defensively: these names come from the server, which may send less than we expect.
  const generators = (models.generators ?? []).map(printable);
  const voters = (models.voters ?? []).map(printable);
  const embedder = models.embedder ? printable(models.embedder) : null;
  const parts = [
    generators.length > 0 ? `generators ${generators.join(", ")}` : null,
    embedder ? `embedder ${embedder}` : null,
    voters.length > 0 ? `voters ${voters.join(", ")}` : null,
  ].filter((p) => p !== null);
  const line = parts.length > 0 ? `Models: ${parts.join(" · ")}` : null;
  if (models.simulated !== true) return { line, warning: null };

  const named = [...generators, ...(embedder ? [embedder] : []), ...voters];
  const sim = [...new Set(named.filter((m) => m.startsWith(SIM_PREFIX)))];
  // When only some roles are sim (say a real generator and the sim voter), say which.
  const partial = sim.length > 0 && sim.length < new Set(named).size;
  const warning = partial
    ? `SIMULATED: part of this result comes from the offline sim model (${sim.join(", ")}): ${HOW_SIM_WORKS}, not a language model.`
    : `SIMULATED: these ${answers} come from the offline sim model (${HOW_SIM_WORKS}), not a language model.`;
  return { line, warning };
}

/** The note as output lines; on a colour terminal the warning's label stands out in black on yellow. */
export function modelsNoteLines(models: ModelsUsed | undefined, answers: "scores" | "votes", colour: boolean): string[] {
  const { line, warning } = modelsNote(models, answers);
  const lines = line ? [line] : [];
  if (warning) lines.push(colour ? warning.replace(/^SIMULATED:/, "\x1b[1;30;43m SIMULATED \x1b[0m\x1b[1m") + "\x1b[0m" : warning);
  return lines;
}

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export const wantsColour = (out: { isTTY?: boolean }, env: NodeJS.ProcessEnv) => out.isTTY === true && !env.NO_COLOR;
