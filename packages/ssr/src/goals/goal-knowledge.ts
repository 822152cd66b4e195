// Everything the service knows about one goal. A goal's anchor statements, the question put
// to a persona and the sim's reading of it describe the same act, so they sit together.
//
// Anchor statements: each reference set holds five first-person statements from level 1
// (most negative) to level 5 (most positive). A sample's pmf is the mean over the sets, so
// no single phrasing decides a score. Each statement is one clause graded by plain intensity
// words (definitely not / never / no way; probably not / unlikely / doubt; not sure /
// undecided / on the fence; probably / likely / chances are; definitely / certainly /
// absolutely). Embedders, including the offline sim one, separate levels by exactly those
// words; a second clause after a semicolon ("…; I would delete it") would blur the level it
// belongs to.

/** Five anchor statements, level 1 first. */
export type AnchorSet = readonly [string, string, string, string, string];

/** The goal in the persona's own terms, about the same act as the goal's anchor statements. */
export interface GoalFraming {
  /**
   * Put to one persona about one creative. An open question in plain words: "how likely"
   * would invite the anchors' own grading words (likely, unlikely) back into the answer.
   */
  question: string;
  /** Completes "Which of the two images …" in a panel vote. */
  comparison: string;
}

/** Relative weight of each visual sub-score in the sim's judgement. */
export interface VisualWeights {
  exposure: number;
  contrast: number;
  colour: number;
  sharpness: number;
  composition: number;
}

/** How the offline sim model reads the goal: plain data, used only by the sim. */
export interface SimGoalProfile {
  /** A verb phrase completing "I would definitely …". */
  action: string;
  /** A noun phrase completing "for …", as in "the stronger choice for …". */
  label: string;
  weights: VisualWeights;
  /** Share of the ad-package judgement that comes from the copy when copy is present. */
  copyShare: number;
}

export interface GoalKnowledge {
  /** At least two reference sets, so no single phrasing decides a score. */
  anchorSets: readonly [AnchorSet, AnchorSet, ...AnchorSet[]];
  framing: GoalFraming;
  simProfile: SimGoalProfile;
}
