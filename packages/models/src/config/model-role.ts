/** The configuration role of a model, by the variable that names it. */
export type ModelRole = "ADRANK_GENERATORS" | "ADRANK_EMBEDDER" | "ADRANK_VOTER" | "ADRANK_VOTERS";
