import type { RequestStatus } from "@adrank/sdk";
import { counted } from "./plural.ts";

// The API counts in "assets" and "pairs"; the sentences want the singular for one.
const NOUNS = { assets: "asset", pairs: "pair" } as const;
const VERBS = { assets: "scored", pairs: "judged" } as const;

/** "3 of 8 assets", "0 of 1 pair": how far a running request has come. */
export const progressCount = ({ progress }: Pick<RequestStatus, "progress">): string => `${progress.done} of ${counted(progress.total, NOUNS[progress.unit])}`;

/** The whole of a request's work: "8 assets", "1 pair". */
export const workCount = ({ progress }: Pick<RequestStatus, "progress">): string => counted(progress.total, NOUNS[progress.unit]);

/** The note of a progress line while waiting: "3 of 8 assets scored". */
export const progressNote = (status: Pick<RequestStatus, "progress">): string => `${progressCount(status)} ${VERBS[status.progress.unit]}`;

/** What `adrank get` prints for a request still running. */
export const stillRunningLine = (status: Pick<RequestStatus, "request_id" | "progress">): string => `Request ${status.request_id} is still running: ${progressCount(status)} done.`;

/** What a request that ended without a result prints (`adrank get`, or a wait that saw it fail). */
export const failedLine = (request: Pick<RequestStatus, "request_id" | "error">): string => `request ${request.request_id} failed: ${request.error ?? "no reason given"}`;
