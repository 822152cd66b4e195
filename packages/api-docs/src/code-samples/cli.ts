import type { z } from "zod";
import { DEMOGRAPHIC_VALUES, type CreateAudienceRequest, type RecordOutcomesRequest, type PairwiseRequest, type RankAudiencesRequest, type RankRequest } from "@adrank/contracts";
import type { CodeSample } from "./code-sample.ts";
import { shellQuote } from "./shell-quote.ts";

// The same calls with the adrank CLI (packages/cli; flags as in its src/commands). The CLI
// reads images from disk and uses each file name as the asset id, so the examples name their
// assets after files. A body the CLI cannot express stops the document build rather than
// printing a command that would send something else.

/** A flag with its value as the shell should see it (already quoted), or a bare switch. */
type Option = [flag: string, shellWord?: string];
const option = (flag: string, value: string | undefined): Option[] => (value === undefined ? [] : [[flag, shellQuote(value)]]);

const sample = (source: string): CodeSample => ({ lang: "shell", label: "CLI", source });

/** `adrank …` with each option on a line of its own. */
const command = (words: string[], options: Option[]) => [words.map(shellQuote).join(" "), ...options.map((o) => o.join(" "))].join(" \\\n  ");

type Audience = z.input<typeof CreateAudienceRequest>;
type WithAudience = { audience?: Audience; audience_id?: string };

const kebab = (camel: string) => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function createAudienceCommand(audience: Audience): string {
  const demographics = Object.entries(audience.demographics ?? {}).map(([field, value]): Option => {
    // One flag per demographics field of the spec (ageRange is --age-range); none for extra keys.
    if (!(field in DEMOGRAPHIC_VALUES)) throw new Error(`the CLI has no flag for the demographics key ${field}`);
    return [`--${kebab(field)}`, shellQuote(String(value))];
  });
  return command(["adrank", "audiences", "create"], [...option("--name", audience.name), ...option("--description", audience.description), ...demographics]);
}

/**
 * The audience flags, and the command to run first when there is one: the CLI's inline
 * audience is a name and a description, so a persona with demographics is saved first
 * (`audiences create` prints the new id) and passed as --audience-id.
 */
function audienceOf({ audience, audience_id }: WithAudience): { before: string; options: Option[] } {
  if (audience_id !== undefined) return { before: "", options: option("--audience-id", audience_id) };
  if (!audience) throw new Error("a CLI sample needs audience or audience_id");
  if (audience.demographics) return { before: `# Demographics come with a saved audience: save it once, reuse its id.\naudience_id=$(${createAudienceCommand(audience)})\n\n`, options: [["--audience-id", '"$audience_id"']] };
  return { before: "", options: [...option("--audience-name", audience.name), ...option("--audience-description", audience.description)] };
}

function fileName(id: string | undefined): string {
  if (id === undefined || !/\.(png|jpe?g|webp|gif)$/i.test(id)) throw new Error(`a CLI sample names images by file; the asset id ${JSON.stringify(id)} is no image file name`);
  return id;
}

/** What rank and rank-across-audiences bodies share: the creatives and how to judge them. */
type Creatives = Pick<z.input<typeof RankRequest>, "assets" | "goal" | "asset_type" | "platform" | "campaign_type" | "refine_close_pairs">;

/**
 * What an `adrank rank` needs first (the audiences' `before`, then a copy file), and the
 * command: the images, the audience flags, the flags of the creatives, and `extra` last.
 */
function rankScript(body: Creatives, audience: { before: string; options: Option[] }, extra: Option[] = []): { setup: string; rank: string } {
  if (body.campaign_type !== undefined || body.assets.some((a) => a.asset_type !== undefined)) throw new Error("the CLI has no flag for campaign_type or a per-asset asset_type");
  const files = body.assets.map((a) => fileName(a.id));
  const copies = Object.fromEntries(body.assets.filter((a) => a.copy_context).map((a) => [fileName(a.id), a.copy_context]));
  const hasCopy = Object.keys(copies).length > 0;
  const copyFile = hasCopy ? `# Ad copy per image, keyed by file name\ncat > copy.json <<'EOF'\n${JSON.stringify(copies, null, 2)}\nEOF\n\n` : "";
  const options: Option[] = [
    ...audience.options,
    ...option("--goal", body.goal),
    ...option("--asset-type", body.asset_type),
    ...option("--platform", body.platform),
    ...(hasCopy ? option("--copy", "copy.json") : []),
    ...(body.refine_close_pairs === false ? [["--no-refine"] as Option] : []),
    ...extra,
  ];
  return { setup: `${audience.before}${copyFile}`, rank: command(["adrank", "rank", ...files], options) };
}

type AudienceItem = z.input<typeof RankAudiencesRequest>["audiences"][number];

/**
 * The audience flags of a ranking for several audiences: inline audiences with a description
 * or demographics in a file (--audiences), the others by --audience-name, saved ones by
 * --audience-id (each flag repeatable). The CLI sends them in that order, so a body that
 * orders its audiences otherwise stops the build.
 */
function audiencesOf(audiences: readonly AudienceItem[]): { before: string; options: Option[] } {
  const kind = (a: AudienceItem) => ("audience_id" in a ? 2 : a.description !== undefined || a.demographics !== undefined ? 0 : 1);
  const kinds = audiences.map(kind);
  if (kinds.some((k, i) => i > 0 && k < kinds[i - 1]!)) throw new Error("the CLI sends --audiences, then --audience-name, then --audience-id audiences: order the example's audiences so");
  const inFile = audiences.filter((a) => kind(a) === 0);
  const before = inFile.length > 0 ? `# The inline audiences, with their descriptions and demographics\ncat > audiences.json <<'EOF'\n${JSON.stringify(inFile, null, 2)}\nEOF\n\n` : "";
  const options = [
    ...(inFile.length > 0 ? option("--audiences", "audiences.json") : []),
    ...audiences.flatMap((a) => ("audience_id" in a ? [] : kind(a) === 1 ? option("--audience-name", a.name) : [])),
    ...audiences.flatMap((a) => ("audience_id" in a ? option("--audience-id", a.audience_id) : [])),
  ];
  return { before, options };
}

export function rankCliSample(body: z.input<typeof RankRequest>): CodeSample {
  const { setup, rank } = rankScript(body, audienceOf(body));
  return sample(`${setup}${rank}`);
}

/** `adrank rank` with several audiences: one request, one ranking per audience. */
export function rankAcrossAudiencesCliSample(body: z.input<typeof RankAudiencesRequest>): CodeSample {
  const { setup, rank } = rankScript(body, audiencesOf(body.audiences));
  return sample(`${setup}${rank}`);
}

/** A ranking started with --async (which prints only its id on stdout), then fetched with `adrank get`. */
export function getRequestCliSample(body: z.input<typeof RankRequest>): CodeSample {
  const { setup, rank } = rankScript(body, audienceOf(body), [["--async"]]);
  return sample(`${setup}# --async returns at once and prints the request id; the ranking runs on the server
request_id=$(${rank})

# Its progress while it runs, then its result (kept 30 days); --wait waits for it
adrank get "$request_id" --wait`);
}

export function pairwiseCliSample(body: z.input<typeof PairwiseRequest>): CodeSample {
  const [pair, ...more] = body.pairs;
  if (!pair || more.length > 0) throw new Error("the CLI compares exactly one pair");
  if (body.campaign_type !== undefined || pair.a.asset_type !== undefined || pair.b.asset_type !== undefined) throw new Error("the CLI's pairwise has no flag for campaign_type or asset_type");
  const audience = audienceOf(body);
  const options = [...audience.options, ...option("--goal", body.goal), ...option("--platform", body.platform)];
  return sample(`${audience.before}${command(["adrank", "pairwise", fileName(pair.a.id), fileName(pair.b.id)], options)}`);
}

export function listAudiencesCliSample(): CodeSample {
  return sample("adrank audiences list");
}

export function createAudienceCliSample(body: Audience): CodeSample {
  return sample(createAudienceCommand(body));
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * The outcomes as a CSV file written with an unquoted here-document, each example request id
 * replaced by its shell variable (`requestIds`), then `adrank outcomes` on it. One metric
 * goes to --metric; several get a metric column.
 */
export function recordOutcomesCliSample(body: z.input<typeof RecordOutcomesRequest>, requestIds: ReadonlyMap<string, string>): CodeSample {
  const metrics = [...new Set(body.outcomes.map((o) => o.metric))];
  const withImpressions = body.outcomes.some((o) => o.impressions !== undefined);
  const columns = ["request_id", "asset_id", ...(metrics.length > 1 ? ["metric"] : []), "value", ...(withImpressions ? ["impressions"] : [])];
  const rows = body.outcomes.map((o) => {
    const requestId = requestIds.get(o.request_id);
    if (requestId === undefined) throw new Error(`no shell variable for the request id ${o.request_id}`);
    const cells: Record<string, string> = { request_id: requestId, asset_id: csvCell(o.asset_id), metric: csvCell(o.metric), value: String(o.value), impressions: o.impressions === undefined ? "" : String(o.impressions) };
    // Unquoted here-document: only the variable may expand, so $, ` and \ elsewhere are escaped.
    return columns.map((c) => (c === "request_id" ? cells[c]! : cells[c]!.replace(/[\\$`]/g, (ch) => `\\${ch}`))).join(",");
  });
  const options = metrics.length === 1 ? option("--metric", metrics[0]) : [];
  return sample(`# One row per creative of the ranking $REQUEST_ID names
cat > outcomes.csv <<EOF
${[columns.join(","), ...rows].join("\n")}
EOF

${command(["adrank", "outcomes", "outcomes.csv"], options)}`);
}

export function getCalibrationCliSample(query: Record<string, string>): CodeSample {
  return sample(command(["adrank", "calibration"], Object.entries(query).flatMap(([name, value]) => option(`--${name}`, value))));
}
