import type { PairwiseResponse, RankAudiencesResponse, RankResponse } from "@adrank/sdk";
import { audienceMatrix } from "./audience-matrix.ts";
import { jsonOutput } from "./json-output.ts";
import { pairwiseLines } from "./pairwise-lines.ts";
import { rankedTable } from "./ranked-table.ts";

export interface OutputOptions {
  /** --json: the API's JSON (data URIs shortened) instead of the table or the votes. */
  json: boolean;
  /** Colour the SIMULATED label: only on a terminal (see wantsColour). */
  colour: boolean;
}

/** How the tables name an image: its file name (the CLI sends it as asset_id), else the start of its URL. */
const imageName = (id: string | null, url: string) => id ?? url.slice(0, 40);

/**
 * What stdout carries for a ranking. One function for `adrank rank` and `adrank get`, so a
 * result fetched later prints byte for byte as it would have when it came back at once.
 */
export const rankOutput = (data: RankResponse, { json, colour }: OutputOptions): string => (json ? jsonOutput(data) : `${rankedTable(data, imageName, { colour })}\n`);

/** What stdout carries for a ranking across audiences (`adrank rank` with several audiences, and `adrank get`). */
export const audiencesOutput = (data: RankAudiencesResponse, { json, colour }: OutputOptions): string => (json ? jsonOutput(data) : `${audienceMatrix(data, imageName, { colour })}\n`);

/** What stdout carries for a pairwise comparison, for `adrank pairwise` and `adrank get`. */
export const pairwiseOutput = (data: PairwiseResponse, { json, colour }: OutputOptions): string =>
  json ? jsonOutput(data) : `${pairwiseLines(data, { colour }).join("\n")}\n`;

/** A result whichever operation made it (`adrank get`), told apart by its shape as the SDK does. */
export function resultOutput(data: RankResponse | PairwiseResponse | RankAudiencesResponse, options: OutputOptions): string {
  if ("by_audience" in data) return audiencesOutput(data, options);
  return "ranked" in data ? rankOutput(data, options) : pairwiseOutput(data, options);
}
