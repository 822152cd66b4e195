/** What the API says produced an answer (`summary.models`); absent from servers that predate it. */
export interface ModelsUsed {
  generators: string[];
  embedder: string | null;
  voters: string[];
  simulated: boolean;
}

/** "Models: generators a, b · embedder c · voters d", or "" when no model is named. */
export function modelsLine(models: ModelsUsed): string {
  const parts = [
    models.generators?.length ? `generators ${models.generators.join(", ")}` : "",
    models.embedder ? `embedder ${models.embedder}` : "",
    models.voters?.length ? `voters ${models.voters.join(", ")}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? `Models: ${parts.join(" · ")}` : "";
}

/** The sim models among those named; all of them ("") unless the answer mixes sim and real models. */
function simOnly(models: ModelsUsed): string {
  const named = new Set([...(models.generators ?? []), ...(models.embedder ? [models.embedder] : []), ...(models.voters ?? [])]);
  const sim = [...named].filter((m) => m.startsWith("sim:"));
  return sim.length > 0 && sim.length < named.size ? sim.join(", ") : "";
}

/**
 * A "Simulated" badge and a sentence when the offline sim model answered, then the models in
 * small text. Renders nothing for an answer without `models`.
 */
export function ModelsNote({ models, answers }: { models: ModelsUsed | undefined; answers: "scores" | "votes" }) {
  if (!models) return null;
  const line = modelsLine(models);
  if (!models.simulated && !line) return null;
  const partly = models.simulated ? simOnly(models) : "";
  return (
    <div className="models-note" data-testid="models-note">
      {models.simulated && (
        <p className="simulated">
          <span className="badge sim" data-testid="simulated-badge">Simulated</span>{" "}
          {partly ? `Part of this result comes from the offline sim model (${partly})` : `These ${answers} come from the offline sim model`}: pixel statistics and copy
          heuristics, not a language model. Treat {partly ? "it" : "them"} as a demonstration, not a prediction.
        </p>
      )}
      {line && <small className="models">{line}</small>}
    </div>
  );
}
