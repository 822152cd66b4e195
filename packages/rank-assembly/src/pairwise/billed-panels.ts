import type { PresentedPanel } from "@adrank/panel-domain";

/**
 * The panels a pairwise request is billed for: the completed ones. A partial panel, or a pair
 * whose images could not be used, is answered but not billed.
 */
export function billedPanelsOf(results: ReadonlyArray<Pick<PresentedPanel, "status">>): number {
  return results.filter((r) => r.status === "done").length;
}
