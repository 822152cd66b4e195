import { writeFile } from "node:fs/promises";
import { ASSET_TYPES, GOALS, LIMITS, type AdRankClient, type RankAudiencesResponse, type RankResponse, type RequestResult, type RequestStatus } from "@adrank/sdk";
import { ASYNC_HELP, ASYNC_OPTIONS, checkAsyncFlags } from "../async-flags.ts";
import { readAudiencesFile } from "../audiences-file.ts";
import { checkAssetType, checkGoal } from "../closed-list-flags.ts";
import { readCopyFile } from "../copy-file.ts";
import { htmlAudiencesReport } from "../html-audiences-report.ts";
import { htmlReport } from "../html-report.ts";
import { readImageFile } from "../image-file.ts";
import { expandImagePaths, skippedNote } from "../image-paths.ts";
import { acceptedLines, asyncCallOptions, callModeOf, syncCallOptions, waitingLine, type CallMode } from "../durable-call.ts";
import { wantsColour } from "../models-note.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { startProgress } from "../progress.ts";
import { checkReportPath } from "../report-path.ts";
import { audienceChoicesOf, audienceEntriesOf, checkAudienceEntries, type AudienceEntry } from "../requests/audience-list.ts";
import { rankAudiencesRequestOf } from "../requests/rank-audiences-request.ts";
import { rankAudienceOf, rankRequestOf } from "../requests/rank-request.ts";
import { audiencesOutput, rankOutput } from "../result-output.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { waitForRequest, type ProgressDisplay } from "../wait-for-request.ts";
import { RANK_AUDIENCE_OPTIONS } from "./audience-flags.ts";

/** A list laid out in lines of at most 100 columns, each under the option descriptions. */
const listed = (items: readonly string[]) => {
  const indent = " ".repeat(32);
  const lines = [indent];
  for (const item of items) {
    const last = lines.length - 1;
    const sep = lines[last] === indent ? "" : ", ";
    if ((lines[last] + sep + item).length > 100) {
      lines[last] += ",";
      lines.push(indent + item);
    } else {
      lines[last] += sep + item;
    }
  }
  return lines.join("\n");
};

export const RANK_HELP = `adrank rank <image or folder>... (--audience-id <id> | --audience-name <name>)... [options]

Ranks 1 to 20 local images (PNG, JPEG, WebP, GIF) for one audience and prints a table
(rank, image, score, confidence, copy lift, P>next, panel outcome): P>next is the chance an
image truly outranks the next one, and a "?" beside a rank marks a pair too close to call (P>next
between 40 % and 60 %). Under it: how many neighbouring pairs are too close to call, the
answer's warnings ("warning [code]: …"), the models that answered, and a SIMULATED warning
when the offline sim model was one of them. A folder stands for the images directly in it (by
content, sorted by name; other files are skipped with a note on stderr, subfolders are not
searched).

With 2 to 5 audiences (--audience-name and --audience-id repeated and mixed, or --audiences),
ranks the images for each of them, exactly as for that audience alone, in the order given, and
prints a matrix instead: a row per image with its score and rank per audience ("4.12 #1"), the
spread and the best audience; ↕ beside an image marks a reversal, listed under it ("a.png ▲ over
b.png for Bargain hunters (3.90 vs 3.20), ▼ for Skeptics (…)"); then each pair of audiences'
rank correlation, and "⚠ persona made no difference: …" for a pair that scored every image
alike within noise. Names are compared without regard to case or surrounding spaces.

  --audience-name <name>        an audience described by its name; repeat for several
  --audience-description <text> with exactly one --audience-name
  --audience-id <id>            a saved audience (adrank audiences list); repeat for several
  --audiences <file.json>       audiences from a file, where the flag stands in the order:
                                  [{"name": "Bargain hunters", "description": "…",
                                    "demographics": {"priceSensitivity": "very-high"}},
                                   {"audience_id": "aud_…"}]
                                the only way to give demographics inline (a saved audience
                                has its own)
  --goal <goal>                 default purchase-intent; one of
${listed(GOALS)}
  --asset-type <type>           default "Social Media Post"; one of
${listed(ASSET_TYPES.map((t) => `"${t}"`))}
  --platform <platform>         e.g. meta, instagram, facebook, tiktok, linkedin, google
  --copy <file.json>            ad copy, either one object for every image
                                  {"headline": "Go further", "body": "Free returns"}
                                or one per image keyed by file name (others get none)
                                  {"a.png": {"headline": "…"}, "b.png": {"body": "…"}}
                                keys: pageName, adBody, adHeadline, adCaption, adDescription
                                (or businessName, primaryText, body, headline, caption, …)
  --refine / --no-refine        close-pair refinement by the voter panel (default on)
  --reuse                       reuse evaluations this account already paid for (same image,
                                copy, audience, goal, asset type, platform and models, within
                                the server's keep time): they cost no credit, and the bill
                                line says how many; only new images are scored and billed
                                (--json: each asset's "reused")
  --json                        print the API's JSON response instead of the table; the
                                images it echoes as data URIs (asset_url) are shortened to
                                "data:image/png;base64,… (34 KiB)" (asset_id names the file)
  --html <file>                 also write a self-contained HTML report with thumbnails; with
                                several audiences, a chart of each image's score per audience
                                and each audience's ranking
${ASYNC_HELP}

When stderr is a terminal and more than one image or audience is ranked, rank submits the
request asynchronously and polls it, so the progress line can say "3 of 8 assets scored" (with
audiences, "3 of 10 scored (5 images × 2 audiences)"); what it prints on stdout is the same
either way. Piped or redirected stderr (scripts, CI), one image for one audience, or an
--idempotency-key keep the single synchronous call.`;

const RANK_OPTIONS = { ...RANK_AUDIENCE_OPTIONS, ...ASYNC_OPTIONS, goal: { type: "string" }, "asset-type": { type: "string" }, platform: { type: "string" }, copy: { type: "string" }, refine: { type: "boolean" }, reuse: { type: "boolean" }, json: { type: "boolean" }, html: { type: "string" } } as const;

/** At most this many images per ranking: the API's own limit, from the contract. */
const MAX_IMAGES = LIMITS.assetsMax;

/** The audiences the flags give, checked as the API would check them; --audiences files are read here, before any image. */
async function audiencesOf(args: string[], description: string | undefined): Promise<AudienceEntry[]> {
  const choices = audienceChoicesOf(args, RANK_OPTIONS);
  const paths = [...new Set(choices.flatMap((c) => (c.kind === "file" ? [c.path] : [])))];
  const files = new Map(await Promise.all(paths.map(async (path) => [path, await readAudiencesFile(path)] as const)));
  const entries = audienceEntriesOf(choices, description, files);
  checkAudienceEntries(entries);
  return entries;
}

/** How a result is asked for: at once, or submitted and (unless --async alone) waited for. */
interface Calls<T> {
  sync(): Promise<T>;
  submit(): Promise<RequestStatus>;
  /** The waited-for result as this operation's; anything else is the server's mistake. */
  resultOf(result: RequestResult): T;
  display: ProgressDisplay;
}

async function obtain<T>(mode: CallMode, client: AdRankClient, progress: ReturnType<typeof startProgress>, calls: Calls<T>): Promise<{ result: T } | { accepted: RequestStatus }> {
  if (mode === "sync") return { result: await calls.sync() };
  const accepted = await calls.submit();
  if (mode === "async") return { accepted };
  if (mode === "async-wait") progress.say(waitingLine(accepted));
  return { result: calls.resultOf(await waitForRequest(client, accepted, calls.display)) };
}

export async function rankCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, RANK_OPTIONS, { allowPositionals: true, allowNegative: true });
  // Everything that can be wrong locally is found before the request, which costs credits,
  // and the cheap checks (flags, environment) before any image is read.
  if (positionals.length === 0) throw new UsageError("give at least one image file or folder");
  checkGoal(values.goal);
  checkAssetType(values["asset-type"]);
  const audiences = await audiencesOf(args, values["audience-description"]);
  checkAsyncFlags(values);
  const settings = settingsFromEnv(env);
  if (values.html) await checkReportPath(values.html);

  const { paths, skipped } = await expandImagePaths(positionals);
  for (const s of skipped) err.write(`${skippedNote(s)}\n`);
  if (paths.length > MAX_IMAGES) throw new UsageError(`${counted(paths.length, "image")}${paths.length === positionals.length ? "" : ` (from ${positionals.join(" ")})`}: a ranking takes at most ${MAX_IMAGES}`);
  const images = await Promise.all(paths.map(readImageFile));
  const names = images.map((i) => i.name);
  if (new Set(names).size !== names.length) throw new UsageError("two images have the same file name; rename one so the results can be told apart");
  const copies = values.copy ? await readCopyFile(values.copy, names) : images.map(() => null);
  const options = { goal: values.goal, "asset-type": values["asset-type"], platform: values.platform, refine: values.refine };
  const several = audiences.length > 1;

  const mode = callModeOf(values, err.isTTY === true && (images.length > 1 || several));
  const work = `${counted(images.length, "image")}${several ? ` for ${audiences.length} audiences` : ""}`;
  const progress = startProgress(`${mode === "async" ? "submitting" : "ranking"} ${work}`, err);
  const client = clientOf(settings, (e) => progress.note(`${e.error.status === 429 ? "rate limited" : "retrying"}, waiting ${(e.delayMs / 1000).toFixed(1)} s`));
  let answer: { result: RankResponse } | { result: RankAudiencesResponse } | { accepted: RequestStatus };
  try {
    if (several) {
      const request = rankAudiencesRequestOf(options, images, copies, audiences.map((a) => a.item));
      answer = await obtain(mode, client, progress, {
        sync: async () => (await client.rankAcrossAudiences(request, syncCallOptions(values))).data,
        submit: async () => (await client.rankAcrossAudiencesAsync(request, asyncCallOptions(values))).data,
        resultOf: rankAudiencesOf,
        display: progress,
      });
    } else {
      const request = rankRequestOf(options, images, copies, rankAudienceOf(audiences[0]!.item));
      answer = await obtain(mode, client, progress, {
        sync: async () => (await client.rank(request, syncCallOptions(values))).data,
        submit: async () => (await client.rankAsync(request, asyncCallOptions(values))).data,
        resultOf: rankOf,
        display: progress,
      });
    }
  } finally {
    progress.stop();
  }
  if ("accepted" in answer) {
    const lines = acceptedLines(answer.accepted, values.json === true);
    out.write(lines.stdout);
    return void err.write(lines.stderr);
  }
  // The result goes out first: a report that fails to write must not lose a paid ranking.
  const output = { json: values.json === true, colour: wantsColour(out, env) };
  const { result } = answer;
  out.write("by_audience" in result ? audiencesOutput(result, output) : rankOutput(result, output));
  if (values.html) {
    const title = `Ranking of ${work}`;
    await writeFile(values.html, "by_audience" in result ? htmlAudiencesReport(result, images, title) : htmlReport(result, images, title));
    if (!values.json) out.write(`report written to ${values.html}\n`);
  }
}

/** A waited-for result of a rank request is a ranking; anything else is the server's mistake. */
function rankOf(result: RequestResult): RankResponse {
  if ("ranked" in result) return result;
  throw new Error("the request's result is not a ranking");
}

/** A waited-for result of a rank-audiences request is one; anything else is the server's mistake. */
function rankAudiencesOf(result: RequestResult): RankAudiencesResponse {
  if ("by_audience" in result) return result;
  throw new Error("the request's result is not a ranking across audiences");
}
