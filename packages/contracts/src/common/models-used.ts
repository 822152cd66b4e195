import { z } from "zod";

const ModelName = z.string().meta({ description: 'A model as "provider:model", e.g. "openai:gpt-5-mini" or "sim:sim-gen-a".' });

/**
 * The models that actually produced a response: only those whose answers went into it, so a
 * request whose every asset failed names none. `simulated` is the one flag a client needs to
 * tell a simulated answer from a model's.
 */
export const ModelsUsed = z.object({
  generators: z.array(ModelName).meta({ description: "Generator models whose samples were scored, in seat order (each evaluation asks both). Empty for pairwise requests." }),
  embedder: ModelName.nullable().meta({ description: "The embedding model that compared the answers with the anchor statements; null when nothing was scored." }),
  voters: z.array(ModelName).meta({ description: "Voter models that cast at least one vote (pairwise panels and close-pair refinement), in seat order. Several when the panel is mixed." }),
  simulated: z.boolean().meta({
    description:
      "True when any model above is the offline `sim` model: its answers are computed from measured image statistics and copy heuristics, not written by a language model. Treat such scores as a demonstration, not a prediction.",
  }),
});
export type ModelsUsed = z.output<typeof ModelsUsed>;
