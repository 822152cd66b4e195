import { TOO_CLOSE_TO_CALL, type RankUncertainty } from "@adrank/sdk";
import { percent } from "./percent.ts";

/** "between 40 % and 60 %": the band of p_above_next inside which a pair is too close to call. */
export const TOO_CLOSE_BAND = `between ${percent(TOO_CLOSE_TO_CALL.low)} and ${percent(TOO_CLOSE_TO_CALL.high)}`;

/** The mark beside the rank of an asset whose order against the next one is a coin toss. */
export const TOO_CLOSE_MARK = "?";

/** What the mark means, printed once under a table that shows it. */
export const TOO_CLOSE_LEGEND = `${TOO_CLOSE_MARK} = too close to call: P>next is ${TOO_CLOSE_BAND}, so that image and the one ranked below it are a coin toss.`;

/**
 * "1 of 2 neighbouring pairs are too close to call (p between 40 % and 60 %)", or null when no
 * pair is, or the server is older than `summary.uncertainty`.
 */
export function tooCloseLine(uncertainty: RankUncertainty | undefined): string | null {
  if (!uncertainty || !(uncertainty.too_close_to_call > 0)) return null;
  return `${uncertainty.too_close_to_call} of ${uncertainty.adjacent_pairs} neighbouring ${uncertainty.adjacent_pairs === 1 ? "pair is" : "pairs are"} too close to call (p ${TOO_CLOSE_BAND})`;
}
