import { z } from "zod";

// The receipt (issue 34): what exactly produced an answer, so it can be compared with, or run
// again against, another one. Stored with the request, as part of the answer.

export const ModelReceipt = z
  .object({
    model: z.string().meta({ description: 'The configured model, as "provider:model".' }),
    versions: z.array(z.string()).meta({
      description:
        "The exact model versions the provider reported answering with (OpenAI's and Anthropic's `model`, Gemini's `modelVersion`), distinct, in the order first seen; empty when the provider reports none (Amazon Bedrock). Several when the provider switched versions during the request.",
    }),
    temperature: z.number().nullable().meta({ description: "The sampling temperature sent; null when none is sent (the model takes none, the provider's default applies, or the deterministic sim)." }),
    thinking: z.string().nullable().meta({ description: 'The reasoning or thinking control sent, as the request carried it (e.g. "reasoning_effort=low"); null when none is sent.' }),
  })
  .meta({ description: "One model behind this answer, with the exact versions and settings that produced it." });
export type ModelReceipt = z.output<typeof ModelReceipt>;

export const ReferenceSetReceipt = z.object({
  hash: z.string().meta({ description: "SHA-256 (first 16 hex digits) of the set's five anchor statements, level 1 first, as JSON." }),
  mean_similarity: z.number().nullable().meta({ description: "Mean pairwise cosine similarity of the set's five anchors under the embedder; null when not measured." }),
});
export type ReferenceSetReceipt = z.output<typeof ReferenceSetReceipt>;

export const MethodReceipt = z
  .object({
    version: z.string().meta({ description: "The scoring method's version: changes with the formulas, the reference sets or the prompt layout." }),
    prompt_templates: z.array(z.string()).meta({
      description: "SHA-256 (first 16 hex digits) of the prompt templates the workers rendered, distinct; one unless workers of different versions answered.",
    }),
    reference_sets: z.array(ReferenceSetReceipt).meta({ description: "The goal's reference (anchor) sets the scores averaged over, in order; empty for pairwise answers." }),
    reference_similarity_limit: z.number().nullable().meta({ description: "The mean anchor similarity above which `anchors_not_separable` is warned; null when nothing was scored." }),
    embedder: z
      .object({ model: z.string(), dimensions: z.int().min(1) })
      .nullable()
      .meta({ description: "The embedding model and the length of its vectors; null when nothing was scored." }),
    generators: z.array(ModelReceipt).meta({ description: "Generator models whose samples were scored, in seat order; empty for pairwise answers." }),
    voters: z.array(ModelReceipt).meta({ description: "Voter models that cast at least one vote (pairwise panels and close-pair refinement)." }),
  })
  .meta({
    description:
      "What produced this answer. The same inputs with the same receipt give the same answer where the models allow it (the sim always does; a real model sampled at a temperature above 0 varies). Stored with the request: GET /api/v1/requests/{request_id} returns it. Always sent by this version; absent from older servers.",
  });
export type MethodReceipt = z.output<typeof MethodReceipt>;
