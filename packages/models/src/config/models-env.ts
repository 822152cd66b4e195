import { envBool, envInt } from "@adrank/runtime";
import { z } from "zod";
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_MIN_THINKING_BUDGET } from "../adapters/anthropic.ts";
import { DEFAULT_GEMINI_THINKING_BUDGET, GEMINI_DEFAULT_BASE_URL } from "../adapters/gemini.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS } from "../adapters/generation-options.ts";
import { DEFAULT_OPENAI_REASONING_BUDGET, OPENAI_DEFAULT_BASE_URL, OPENAI_REASONING_EFFORTS } from "../adapters/openai-compatible.ts";
import { formatModelRef, parseModelRef, PROVIDERS, type ModelRef } from "./model-ref.ts";
import { readProviderProfiles, type ProfileIssue, type ProviderProfile } from "./provider-profiles.ts";

export const DEFAULT_GENERATORS = "sim:sim-gen-a,sim:sim-gen-b";
export const DEFAULT_EMBEDDER = "sim:sim-embed";
const DEFAULT_VOTER_REF: ModelRef = { provider: "sim", model: "sim-voter" };
export const DEFAULT_VOTER = formatModelRef(DEFAULT_VOTER_REF);
/** One focused seat and one at the providers' usual default of 1, so a repetition's two samples differ by more than their model. */
export const DEFAULT_GENERATOR_TEMPERATURES = "0.5,1.0";
/** Every seat of a panel is meant as an independent judge; at 0, seats on one model would all cast the same vote. */
export const DEFAULT_VOTER_TEMPERATURE = 1;
/** ADRANK_VOTERS names at most this many panel models (a model may appear more than once). */
export const MAX_VOTERS = 5;
/** Where the parsed provider profiles travel through the schema: not an environment variable. */
const PROFILES = "providerProfiles";
const withProfiles = (env: unknown) => (env && typeof env === "object" ? { ...env, [PROFILES]: readProviderProfiles(env as Record<string, string | undefined>) } : env);

/** An unset variable and an empty one mean the same: use the default. */
const blankAsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = z.preprocess(blankAsUnset, z.string().trim().optional());
const url = (def: string) => z.preprocess(blankAsUnset, z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).default(def));

const refOrIssue = (text: string, ctx: z.RefinementCtx): ModelRef => {
  const parsed = parseModelRef(text);
  if (parsed.ok) return parsed.ref;
  ctx.addIssue({ code: "custom", message: parsed.error });
  return z.NEVER;
};

const modelRef = (def: string) => z.preprocess(blankAsUnset, z.string().default(def).transform(refOrIssue));
const optionalModelRef = z.preprocess(blankAsUnset, z.string().transform(refOrIssue).optional());

/** Reads a comma list of provider:model refs, `count` saying how many it must hold. */
const refListOrIssue =
  (count: { min: number; max: number; noun: string; expected: string }) =>
  (text: string, ctx: z.RefinementCtx): ModelRef[] => {
    const items = text.split(",").map((s) => s.trim()).filter(Boolean);
    if (items.length < count.min || items.length > count.max) {
      ctx.addIssue({ code: "custom", message: `must name ${count.expected} ${count.noun} as "provider:model,provider:model", got ${items.length}` });
      return z.NEVER;
    }
    const refs = items.map(parseModelRef);
    const errors = refs.flatMap((r) => (r.ok ? [] : [r.error]));
    if (errors.length > 0) {
      ctx.addIssue({ code: "custom", message: errors.join("; ") });
      return z.NEVER;
    }
    return refs.flatMap((r) => (r.ok ? [r.ref] : []));
  };

const generatorPair = z.preprocess(
  blankAsUnset,
  z
    .string()
    .default(DEFAULT_GENERATORS)
    .transform(refListOrIssue({ min: 2, max: 2, noun: "generators", expected: "exactly two" }))
    .transform(([a, b]): [ModelRef, ModelRef] => [a!, b!]),
);
const voterList = z.preprocess(blankAsUnset, z.string().transform(refListOrIssue({ min: 1, max: MAX_VOTERS, noun: "voters", expected: `1 to ${MAX_VOTERS}` })).optional());

const TEMPERATURE_RANGE = "a number from 0 to 2";
const temperatureOf = (text: string): number | null => {
  const value = text.trim() === "" ? Number.NaN : Number(text);
  return Number.isFinite(value) && value >= 0 && value <= 2 ? value : null;
};
const temperature = (def: number) =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .optional()
      .transform((text, ctx): number => {
        if (text === undefined) return def;
        const value = temperatureOf(text);
        if (value !== null) return value;
        ctx.addIssue({ code: "custom", message: `must be ${TEMPERATURE_RANGE}, got "${text}"` });
        return z.NEVER;
      }),
  );
const generatorTemperatures = z.preprocess(
  blankAsUnset,
  z
    .string()
    .default(DEFAULT_GENERATOR_TEMPERATURES)
    .transform((text, ctx): [number, number] => {
      const items = text.split(",").map((s) => s.trim());
      const values = items.map(temperatureOf);
      if (items.length !== 2 || values.some((v) => v === null)) {
        ctx.addIssue({ code: "custom", message: `must be two temperatures, one per generator seat, each ${TEMPERATURE_RANGE} (e.g. "${DEFAULT_GENERATOR_TEMPERATURES}"), got "${text}"` });
        return z.NEVER;
      }
      return [values[0]!, values[1]!];
    }),
);

/** An integer variable where empty means unset, as for every other variable here. */
const int = (def: number, min: number, max: number) => z.preprocess(blankAsUnset, envInt(def, min, max));

export const ModelsEnv = z.preprocess(
  withProfiles,
  z
  .object({
    [PROFILES]: z.custom<{ profiles: ProviderProfile[]; issues: ProfileIssue[] }>(),
    ADRANK_GENERATORS: generatorPair,
    ADRANK_EMBEDDER: modelRef(DEFAULT_EMBEDDER),
    /** One panel model; unset (and no ADRANK_VOTERS): sim:sim-voter. Read `voters` for the panel. */
    ADRANK_VOTER: optionalModelRef,
    /** 1 to 5 panel models; excludes ADRANK_VOTER. */
    ADRANK_VOTERS: voterList,
    /** Per generator seat (generatorIndex 0 and 1). */
    ADRANK_GENERATOR_TEMPERATURES: generatorTemperatures,
    ADRANK_VOTER_TEMPERATURE: temperature(DEFAULT_VOTER_TEMPERATURE),
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
    /** Tokens for a generator's answer alone; reasoning and thinking budgets come on top, so they never eat it. */
    MODEL_MAX_OUTPUT_TOKENS: int(DEFAULT_MAX_OUTPUT_TOKENS, 16, 65_536),
    /** Further attempts after an empty or cut-off answer (a refusal is never asked again). */
    MODEL_ANSWER_RETRIES: int(DEFAULT_ANSWER_RETRIES, 0, 5),
    /** Sent as reasoning_effort to OpenAI-compatible models; unset: not sent (non-reasoning models reject it). */
    OPENAI_REASONING_EFFORT: z.preprocess(blankAsUnset, z.enum(OPENAI_REASONING_EFFORTS).optional()),
    /** Reasoning tokens allowed on top of the answer budget while OPENAI_REASONING_EFFORT is set. */
    OPENAI_REASONING_BUDGET: int(DEFAULT_OPENAI_REASONING_BUDGET, 1, 131_072),
    /** Anthropic extended thinking: off unless set. */
    ANTHROPIC_THINKING_BUDGET: z.preprocess(
      blankAsUnset,
      z.coerce
        .number()
        .int()
        .min(ANTHROPIC_MIN_THINKING_BUDGET, { message: `must be at least ${ANTHROPIC_MIN_THINKING_BUDGET}, Anthropic's smallest thinking budget (leave it empty to turn thinking off)` })
        .max(128_000)
        .optional(),
    ),
    /** -1 asks for dynamic thinking where the model offers it; each model's own range applies (docs/models.md). */
    GEMINI_THINKING_BUDGET: int(DEFAULT_GEMINI_THINKING_BUDGET, -1, 32_768),
    /** The Gemini API version; v1beta by default, where the -latest aliases and thinking settings live. */
    GEMINI_API_VERSION: z.preprocess(blankAsUnset, z.enum(["v1beta", "v1"]).optional()),
    /** Services make one minimal real call per configured model at start and stay not ready until all answer. */
    ADRANK_MODELS_CHECK_AT_START: envBool(false),
    /** Artificial delay before every sim generator call, for benchmarks. */
    SIM_LATENCY_MS: envInt(0, 0, 600_000),
    /** Whether any role may use the offline sim; production sets false so it never serves simulated scores unnoticed. */
    ADRANK_ALLOW_SIM: envBool(true),
  })
  .superRefine((env, ctx) => {
    if (env.ADRANK_VOTER && env.ADRANK_VOTERS) {
      ctx.addIssue({
        code: "custom",
        path: ["ADRANK_VOTERS"],
        message: "cannot be set together with ADRANK_VOTER: name every panel model in ADRANK_VOTERS and leave ADRANK_VOTER empty (it is the one-model form)",
      });
    }
    const roles: Array<[string, ModelRef]> = [
      ["ADRANK_GENERATORS", env.ADRANK_GENERATORS[0]],
      ["ADRANK_GENERATORS", env.ADRANK_GENERATORS[1]],
      ["ADRANK_EMBEDDER", env.ADRANK_EMBEDDER],
      ...votersOf(env).map((v): [string, ModelRef] => [v.variable, v.ref]),
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

    const { profiles, issues } = env[PROFILES];
    for (const issue of issues) ctx.addIssue({ code: "custom", path: [issue.variable], message: issue.message });
    const kindOf = (provider: string): string | undefined => ((PROVIDERS as readonly string[]).includes(provider) ? provider : profiles.find((p) => p.name === provider)?.kind);
    const known = [...PROVIDERS, ...profiles.map((p) => p.name)];
    for (const [variable, ref] of roles) {
      if (kindOf(ref.provider) === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [variable],
          message: `unknown provider "${ref.provider}" in "${formatModelRef(ref)}" (known: ${known.join(", ")}; add a profile to ADRANK_PROVIDER_PROFILES to use another endpoint)`,
        });
      }
    }

    const embedderKind = kindOf(env.ADRANK_EMBEDDER.provider);
    if (embedderKind === "anthropic") {
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
  })
  .transform(({ [PROFILES]: read, ...env }) => ({
    ...env,
    /** The panel models in seat order, from ADRANK_VOTERS, else ADRANK_VOTER, else sim:sim-voter. */
    voters: votersOf(env).map((v) => v.ref),
    /** The endpoints named in ADRANK_PROVIDER_PROFILES, beside the built-in openai, anthropic, gemini and sim. */
    profiles: read.profiles,
  })),
);

export type ModelsConfig = z.infer<typeof ModelsEnv>;

/** The panel models with the variable that named each, for messages. */
function votersOf(env: { ADRANK_VOTER?: ModelRef | undefined; ADRANK_VOTERS?: ModelRef[] | undefined }): Array<{ variable: "ADRANK_VOTERS" | "ADRANK_VOTER"; ref: ModelRef }> {
  if (env.ADRANK_VOTERS) return env.ADRANK_VOTERS.map((ref) => ({ variable: "ADRANK_VOTERS", ref }));
  return [{ variable: "ADRANK_VOTER", ref: env.ADRANK_VOTER ?? DEFAULT_VOTER_REF }];
}
