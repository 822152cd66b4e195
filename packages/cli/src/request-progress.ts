import type { RequestStatus } from "@adrank/sdk";
import { counted } from "./plural.ts";

// The API counts in "assets" and "pairs"; the sentences want the singular for one. A ranking
// across audiences counts each asset once per audience, so its count is of scorings (one asset
// for one audience): "3 of 9 assets" would read as if there were nine images.
type Progressing = Pick<RequestStatus, "progress"> & Partial<Pick<RequestStatus, "operation">>;
const nounOf = ({ progress, operation }: Progressing): string => (operation === "rank_audiences" ? "scoring" : progress.unit === "pairs" ? "pair" : "asset");
const verbOf = ({ progress, operation }: Progressing): string => (operation === "rank_audiences" ? "done" : progress.unit === "pairs" ? "judged" : "scored");

/** "3 of 8 assets", "0 of 1 pair", "4 of 9 scorings": how far a running request has come. */
export const progressCount = (status: Progressing): string => `${status.progress.done} of ${counted(status.progress.total, nounOf(status))}`;

/** The whole of a request's work: "8 assets", "1 pair", "9 scorings". */
export const workCount = (status: Progressing): string => counted(status.progress.total, nounOf(status));

/** The note of a progress line while waiting: "3 of 8 assets scored", "4 of 9 scorings done". */
export const progressNote = (status: Progressing): string => `${progressCount(status)} ${verbOf(status)}`;

/** What `adrank get` prints for a request still running. */
export const stillRunningLine = (status: Pick<RequestStatus, "request_id" | "progress"> & Partial<Pick<RequestStatus, "operation">>): string =>
  `Request ${status.request_id} is still running: ${progressCount(status)} done.`;

/** What a request that ended without a result prints (`adrank get`, or a wait that saw it fail). */
export const failedLine = (request: Pick<RequestStatus, "request_id" | "error">): string => `request ${request.request_id} failed: ${request.error ?? "no reason given"}`;
