import type { PairwiseResponse, RankResponse } from "@adrank/sdk";
import { jsonOutput } from "./json-output.ts";
import { pairwiseLines } from "./pairwise-lines.ts";
import { rankedTable } from "./ranked-table.ts";

export interface OutputOptions {
  /** --json: the API's JSON (data URIs shortened) instead of the table or the votes. */
  json: boolean;
  /** Colour the SIMULATED label: only on a terminal (see wantsColour). */
  colour: boolean;
}

/**
 * What stdout carries for a ranking. One function for `adrank rank` and `adrank get`, so a
 * result fetched later prints byte for byte as it would have when it came back at once.
 */
export const rankOutput = (data: RankResponse, { json, colour }: OutputOptions): string =>
  json ? jsonOutput(data) : `${rankedTable(data, (id, url) => id ?? url.slice(0, 40), { colour })}\n`;

/** What stdout carries for a pairwise comparison, for `adrank pairwise` and `adrank get`. */
export const pairwiseOutput = (data: PairwiseResponse, { json, colour }: OutputOptions): string =>
  json ? jsonOutput(data) : `${pairwiseLines(data, { colour }).join("\n")}\n`;

/** A result whichever operation made it (`adrank get`), told apart by its shape as the SDK does. */
export const resultOutput = (data: RankResponse | PairwiseResponse, options: OutputOptions): string => ("ranked" in data ? rankOutput(data, options) : pairwiseOutput(data, options));
