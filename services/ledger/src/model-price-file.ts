import { readFile } from "node:fs/promises";
import { z } from "zod";
import { DEFAULT_PRICE_TABLE, isExactPrice, type ModelPrice, type PriceTable } from "@adrank/ledger-domain";

const Price = z.number().refine(isExactPrice, "must be a number >= 0 with at most 6 decimals (USD per million tokens)");
const ProviderName = z.string().regex(/^[a-z][a-z0-9-]*$/, "must be a provider name (lower-case letters, digits and -)");
/** "provider:model" as the ledger records it, or "provider:*" for all of a provider's models. */
const ModelKey = z.string().max(200).regex(/^[a-z][a-z0-9-]*:[\x21-\x7e]+$/, 'must be "provider:model" or "provider:*"');

/**
 * An operator's price file (ADRANK_MODEL_PRICES_FILE, `model-usage --prices`), USD per million
 * tokens. `cachedInput` and `cacheWrite` default to `input` (no discount, no premium): a
 * provider that bills neither needs only input and output.
 *
 * @example
 * { "providers": { "aws": "bedrock" },
 *   "models": { "openai:gpt-5-mini": { "input": 0.25, "cachedInput": 0.025, "output": 2 }, "ollama:*": { "input": 0, "output": 0 } } }
 */
export const ModelPriceFile = z
  .object({
    /** true: the file is the whole table; false (default): its entries replace or add to the default table's. */
    replaceDefaults: z.boolean().default(false),
    /** Provider names priced as another provider's entries, e.g. a Bedrock profile named "aws" as "bedrock". */
    providers: z.record(ProviderName, ProviderName).default({}),
    models: z.record(ModelKey, z.object({ input: Price, cachedInput: Price.optional(), cacheWrite: Price.optional(), output: Price }).strict()).default({}),
  })
  .strict();
export type ModelPriceFile = z.input<typeof ModelPriceFile>;

/** Where a zod issue is, as an operator reads it: `models["openai:gpt-5-mini"].input`. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `${out ? "." : ""}${String(p)}` : `[${JSON.stringify(String(p))}]`;
  return out || "(the file)";
}

/** An issue's message; a record key's says what the key must be rather than zod's "Invalid key in record". */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_key" && issue.issues.length > 0) return `key ${issue.issues.map((i) => i.message).join(", ")}`;
  return issue.message;
}

/**
 * The price table an operator's file makes, over `base` (the default table) unless it says
 * `replaceDefaults`; or a sentence naming every field that is wrong.
 *
 * @example
 * priceTableFrom({ models: { "openai:gpt-5-mini": { input: "cheap", output: 2 } } });
 * // { error: 'models["openai:gpt-5-mini"].input: Invalid input: expected number, received string' }
 */
export function priceTableFrom(json: unknown, base: PriceTable = DEFAULT_PRICE_TABLE): PriceTable | { error: string } {
  const parsed = ModelPriceFile.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => `${fieldOf(i.path)}: ${messageOf(i)}`).join("; ") };
  const file = parsed.data;
  const models: Record<string, ModelPrice> = {};
  for (const [key, p] of Object.entries(file.models)) models[key] = { input: p.input, cachedInput: p.cachedInput ?? p.input, cacheWrite: p.cacheWrite ?? p.input, output: p.output };
  return file.replaceDefaults ? { models, providers: file.providers } : { models: { ...base.models, ...models }, providers: { ...base.providers, ...file.providers } };
}

/**
 * The price table of the file at `path`, or the default table when there is none; a sentence
 * naming the file and what is wrong with it otherwise.
 */
export async function loadPriceTable(path: string | undefined): Promise<PriceTable | { error: string }> {
  if (path === undefined || path === "") return DEFAULT_PRICE_TABLE;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (err) {
    return { error: `model prices file ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const table = priceTableFrom(json);
  return "error" in table ? { error: `model prices file ${path}: ${table.error}` } : table;
}
