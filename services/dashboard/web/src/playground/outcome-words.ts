import type { PanelOutcome, Vote } from "./answers.ts";

// Results put in words a marketer reads without the API reference open.

/** "Panel: summer.png beat spring.png, 4 of 5 votes". */
export function panelSentence(outcome: Pick<PanelOutcome, "winnerAssetId" | "loserAssetId" | "votesFor" | "votesTotal">): string {
  return `Panel: ${outcome.winnerAssetId} beat ${outcome.loserAssetId}, ${outcome.votesFor} of ${outcome.votesTotal} votes`;
}

/** "saw summer.png first": which image the voter was shown first (votes are balanced across orders). */
export function voteOrder(vote: Pick<Vote, "order">, aId: string, bId: string): string {
  return `saw ${vote.order === "ab" ? aId : bId} first`;
}

/** "+0.12" or "−0.14" (a real minus sign), two decimals. */
export function signed(value: number): string {
  const text = Math.abs(value).toFixed(2);
  return value > 0 ? `+${text}` : value < 0 && text !== "0.00" ? `−${text}` : text;
}

/** "1 credit used · 43 left." */
export function creditsLine(used: number, remaining: number | null | undefined): string {
  return `${used} credit${used === 1 ? "" : "s"} used · ${remaining ?? "?"} left.`;
}

export const COPY_LIFT_HELP =
  "Copy lift: how much your headline and body raised (+) or lowered (−) an image's score compared with the image alone, on the same 1–5 scale.";

export const FLIPPED_HELP = "The panel preferred the image with the lower score, so the two swapped places.";
