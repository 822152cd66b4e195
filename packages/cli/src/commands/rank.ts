import { writeFile } from "node:fs/promises";
import { ASSET_TYPES, GOALS, LIMITS, type RankResponse, type RequestResult, type RequestStatus } from "@adrank/sdk";
import { ASYNC_HELP, ASYNC_OPTIONS, checkAsyncFlags } from "../async-flags.ts";
import { checkAssetType, checkGoal } from "../closed-list-flags.ts";
import { readCopyFile } from "../copy-file.ts";
import { htmlReport } from "../html-report.ts";
import { readImageFile } from "../image-file.ts";
import { expandImagePaths, skippedNote } from "../image-paths.ts";
import { acceptedLines, asyncCallOptions, callModeOf, syncCallOptions, waitingLine } from "../durable-call.ts";
import { wantsColour } from "../models-note.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { startProgress } from "../progress.ts";
import { checkReportPath } from "../report-path.ts";
import { audienceOf } from "../requests/audience-from-flags.ts";
import { rankRequestOf } from "../requests/rank-request.ts";
import { rankOutput } from "../result-output.ts";
import { clientOf, settingsFromEnv } from "../settings.ts";
import { UsageError } from "../usage-error.ts";
import { waitForRequest } from "../wait-for-request.ts";
import { AUDIENCE_OPTIONS } from "./audience-flags.ts";

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

export const RANK_HELP = `adrank rank <image or folder>... (--audience-id <id> | --audience-name <name>) [options]

Ranks 1 to 20 local images (PNG, JPEG, WebP, GIF) for one audience and prints a table
(rank, image, score, confidence, copy lift, P>next, panel outcome): P>next is the chance an
image truly outranks the next one, and a "?" beside a rank marks a pair too close to call (P>next
between 40 % and 60 %). Under it: how many neighbouring pairs are too close to call, the
answer's warnings ("warning [code]: …"), the models that answered, and a SIMULATED warning
when the offline sim model was one of them. A folder stands for the images directly in it (by
content, sorted by name; other files are skipped with a note on stderr, subfolders are not
searched).

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
  --json                        print the API's JSON response instead of the table; the
                                images it echoes as data URIs (asset_url) are shortened to
                                "data:image/png;base64,… (34 KiB)" (asset_id names the file)
  --html <file>                 also write a self-contained HTML report with thumbnails
  --audience-description <text> with --audience-name
${ASYNC_HELP}

When stderr is a terminal and more than one image is ranked, rank submits the request
asynchronously and polls it, so the progress line can say "3 of 8 assets scored"; what it prints
on stdout is the same either way. Piped or redirected stderr (scripts, CI), one image, or an
--idempotency-key keep the single synchronous call.`;

const RANK_OPTIONS = { ...AUDIENCE_OPTIONS, ...ASYNC_OPTIONS, goal: { type: "string" }, "asset-type": { type: "string" }, platform: { type: "string" }, copy: { type: "string" }, refine: { type: "boolean" }, json: { type: "boolean" }, html: { type: "string" } } as const;

/** At most this many images per ranking: the API's own limit, from the contract. */
const MAX_IMAGES = LIMITS.assetsMax;

export async function rankCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream, err: NodeJS.WriteStream = process.stderr): Promise<void> {
  const { values, positionals } = parseFlags(args, RANK_OPTIONS, { allowPositionals: true, allowNegative: true });
  // Everything that can be wrong locally is found before the request, which costs credits,
  // and the cheap checks (flags, environment) before any image is read.
  if (positionals.length === 0) throw new UsageError("give at least one image file or folder");
  checkGoal(values.goal);
  checkAssetType(values["asset-type"]);
  audienceOf(values);
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
  const request = rankRequestOf(values, images, copies);

  const mode = callModeOf(values, err.isTTY === true && images.length > 1);

  const progress = startProgress(`${mode === "async" ? "submitting" : "ranking"} ${counted(images.length, "image")}`, err);
  const client = clientOf(settings, (e) => progress.note(`${e.error.status === 429 ? "rate limited" : "retrying"}, waiting ${(e.delayMs / 1000).toFixed(1)} s`));
  let accepted: RequestStatus | null = null;
  let result: RankResponse | null = null;
  try {
    if (mode === "sync") result = (await client.rank(request, syncCallOptions(values))).data;
    else {
      accepted = (await client.rankAsync(request, asyncCallOptions(values))).data;
      if (mode === "async-wait") progress.say(waitingLine(accepted));
      if (mode !== "async") result = rankOf(await waitForRequest(client, accepted, progress));
    }
  } finally {
    progress.stop();
  }
  if (result === null) {
    const lines = acceptedLines(accepted!, values.json === true);
    out.write(lines.stdout);
    return void err.write(lines.stderr);
  }
  // The result goes out first: a report that fails to write must not lose a paid ranking.
  out.write(rankOutput(result, { json: values.json === true, colour: wantsColour(out, env) }));
  if (values.html) {
    await writeFile(values.html, htmlReport(result, images, `Ranking of ${counted(images.length, "image")}`));
    if (!values.json) out.write(`report written to ${values.html}\n`);
  }
}

/** A waited-for result of a rank request is a ranking; anything else is the server's mistake. */
function rankOf(result: RequestResult): RankResponse {
  if ("ranked" in result) return result;
  throw new Error("the request's result is not a ranking");
}
