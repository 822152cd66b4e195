import type { CopyFields } from "../types.ts";

export interface CopySignals {
  /** 0..1, 0.5 for copy that neither helps nor hurts. */
  score: number;
  hasHeadline: boolean;
  bodyChars: number;
  hasCallToAction: boolean;
  shouting: boolean;
  /** Short third-person notes for the answer text. */
  notes: string[];
  strengths: string[];
}

/** Common imperative calls to action in English ads. */
const CALL_TO_ACTION = /\b(shop|buy|order|get|grab|claim|try|start|join|sign up|subscribe|book|reserve|download|install|learn more|discover|explore|see more|find out|call|visit|register|apply|save|donate|upgrade|request|contact|watch)\b/i;

/** Body copy that fits a feed without truncation but still says something. */
const BODY_SWEET_SPOT = { min: 40, max: 180 };

function isShouting(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, "");
  if (letters.length < 12) return false;
  const upper = letters.replace(/[^A-Z]/g, "").length;
  return upper / letters.length > 0.6;
}

/**
 * Heuristics a copywriter would apply at a glance: a headline, a body of a readable length,
 * a call to action, and no shouting in capitals.
 */
export function copySignals(copy: CopyFields): CopySignals {
  const headline = (copy.adHeadline ?? "").trim();
  const body = (copy.adBody ?? "").trim();
  const all = Object.values(copy).join(" \n ");
  const hasHeadline = headline.length > 0;
  const hasCallToAction = CALL_TO_ACTION.test(all);
  const shouting = Object.values(copy).some(isShouting);
  const exclaiming = (all.match(/!/g) ?? []).length >= 3;
  const notes: string[] = [];
  const strengths: string[] = [];

  let score = 0.5;
  if (hasHeadline) {
    score += 0.15;
    strengths.push("the headline is clear");
  } else notes.push("the copy lacks a headline");
  if (body.length >= BODY_SWEET_SPOT.min && body.length <= BODY_SWEET_SPOT.max) {
    score += 0.15;
    strengths.push("the body copy is a readable length");
  } else if (body.length > 400) {
    score -= 0.1;
    notes.push("the body copy is long for a feed");
  } else if (body.length > 0 && body.length < 15) {
    score -= 0.05;
    notes.push("the body copy is very thin");
  }
  if (hasCallToAction) {
    score += 0.15;
    strengths.push("there is a clear call to action");
  } else notes.push("the copy lacks a call to action");
  if ((copy.pageName ?? "").trim()) score += 0.05;
  if (shouting) {
    score -= 0.25;
    notes.push("the copy shouts in capital letters");
  }
  if (exclaiming) {
    score -= 0.05;
    notes.push("the copy leans on exclamation marks");
  }
  return { score: Math.min(1, Math.max(0, score)), hasHeadline, bodyChars: body.length, hasCallToAction, shouting, notes, strengths };
}
