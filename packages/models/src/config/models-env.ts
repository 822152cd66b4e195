import { envBool, envInt } from "@adrank/runtime";
import { z } from "zod";
import { ANTHROPIC_DEFAULT_BASE_URL } from "../adapters/anthropic.ts";
import { GEMINI_DEFAULT_BASE_URL } from "../adapters/gemini.ts";
import { OPENAI_DEFAULT_BASE_URL } from "../adapters/openai-compatible.ts";
import { parseModelRef, type ModelRef } from "./model-ref.ts";

export const DEFAULT_GENERATORS = "sim:sim-gen-a,sim:sim-gen-b";
export const DEFAULT_EMBEDDER = "sim:sim-embed";
export const DEFAULT_VOTER = "sim:sim-voter";

/** An unset variable and an empty one mean the same: use the default. */
const blankAsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = z.preprocess(blankAsUnset, z.string().trim().optional());
const url = (def: string) => z.preprocess(blankAsUnset, z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).default(def));

const modelRef = (def: string) =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .default(def)
      .transform((text, ctx): ModelRef => {
        const parsed = parseModelRef(text);
        if (parsed.ok) return parsed.ref;
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }),
  );

const generatorPair = z.preprocess(
  blankAsUnset,
  z
    .string()
    .default(DEFAULT_GENERATORS)
    .transform((text, ctx): [ModelRef, ModelRef] => {
      const items = text.split(",").map((s) => s.trim()).filter(Boolean);
      if (items.length !== 2) {
        ctx.addIssue({ code: "custom", message: `must name exactly two generators as "provider:model,provider:model", got ${items.length}` });
        return z.NEVER;
      }
      const refs = items.map(parseModelRef);
      const errors = refs.flatMap((r) => (r.ok ? [] : [r.error]));
      if (errors.length > 0) {
        ctx.addIssue({ code: "custom", message: errors.join("; ") });
        return z.NEVER;
      }
      const [a, b] = refs.flatMap((r) => (r.ok ? [r.ref] : []));
      return [a!, b!];
    }),
);

export const ModelsEnv = z
  .object({
    ADRANK_GENERATORS: generatorPair,
    ADRANK_EMBEDDER: modelRef(DEFAULT_EMBEDDER),
    ADRANK_VOTER: modelRef(DEFAULT_VOTER),
    OPENAI_BASE_URL: url(OPENAI_DEFAULT_BASE_URL),
    OPENAI_API_KEY: optionalText,
    ANTHROPIC_BASE_URL: url(ANTHROPIC_DEFAULT_BASE_URL),
    ANTHROPIC_API_KEY: optionalText,
    GEMINI_BASE_URL: url(GEMINI_DEFAULT_BASE_URL),
    GEMINI_API_KEY: optionalText,
    /** Per attempt. */
    MODEL_TIMEOUT_MS: envInt(60_000, 100, 600_000),
    MODEL_MAX_RETRIES: envInt(3, 0, 10),
    /** In-flight calls per provider, shared by all models of that provider. */
    MODEL_CONCURRENCY: envInt(8, 1, 1024),
    /** Artificial delay before every sim generator call, for benchmarks. */
    SIM_LATENCY_MS: envInt(0, 0, 600_000),
    /** Whether any role may use the offline sim; production sets false so it never serves simulated scores unnoticed. */
    ADRANK_ALLOW_SIM: envBool(true),
  })
  .superRefine((env, ctx) => {
    const roles: Array<[string, ModelRef]> = [
      ["ADRANK_GENERATORS", env.ADRANK_GENERATORS[0]],
      ["ADRANK_GENERATORS", env.ADRANK_GENERATORS[1]],
      ["ADRANK_EMBEDDER", env.ADRANK_EMBEDDER],
      ["ADRANK_VOTER", env.ADRANK_VOTER],
    ];
    const usedBy = (provider: string) => [...new Set(roles.filter(([, ref]) => ref.provider === provider).map(([role]) => role))];
    const list = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? ""));
    const use = (roles: string[]) => `${list(roles)} ${roles.length > 1 ? "use" : "uses"}`;

    // Checked here, in the schema every model-using service loads, so all of them refuse alike.
    const simRoles = usedBy("sim");
    if (!env.ADRANK_ALLOW_SIM && simRoles.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["ADRANK_ALLOW_SIM"],
        message: `is false but ${use(simRoles)} the offline simulated model (sim), which serves simulated scores: set ${simRoles.length > 1 ? "them" : "it"} to a real provider:model, or set ADRANK_ALLOW_SIM=true to accept simulated scores knowingly`,
      });
    }

    if (env.ADRANK_EMBEDDER.provider === "anthropic") {
      ctx.addIssue({ code: "custom", path: ["ADRANK_EMBEDDER"], message: "anthropic offers no embeddings API; use openai, gemini or sim as the embedder" });
    }
    const openaiRoles = usedBy("openai");
    const isDefaultOpenAI = env.OPENAI_BASE_URL.replace(/\/+$/, "") === OPENAI_DEFAULT_BASE_URL;
    if (openaiRoles.length > 0 && !env.OPENAI_API_KEY && isDefaultOpenAI) {
      ctx.addIssue({
        code: "custom",
        path: ["OPENAI_API_KEY"],
        message: `required because ${use(openaiRoles)} provider openai at ${OPENAI_DEFAULT_BASE_URL} (a local OpenAI-compatible server can run without a key: set OPENAI_BASE_URL to it)`,
      });
    }
    for (const [provider, key, value] of [["anthropic", "ANTHROPIC_API_KEY", env.ANTHROPIC_API_KEY], ["gemini", "GEMINI_API_KEY", env.GEMINI_API_KEY]] as const) {
      const used = usedBy(provider);
      if (used.length > 0 && !value) ctx.addIssue({ code: "custom", path: [key], message: `required because ${use(used)} provider ${provider}` });
    }
  });

export type ModelsConfig = z.infer<typeof ModelsEnv>;
