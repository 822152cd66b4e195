import { jsonOutput } from "../json-output.ts";
import { parseFlags } from "../parse-flags.ts";
import { createAudienceRequestOf, DEMOGRAPHIC_FLAGS } from "../requests/audience-request.ts";
import { clientFromEnv } from "../settings.ts";
import { didYouMean } from "../suggestion.ts";
import { UsageError } from "../usage-error.ts";

export const AUDIENCES_HELP = `adrank audiences list [--json]
adrank audiences create --name <name> [--description <text>] [demographics] [--json]

Saved audiences belong to your account; rank and pairwise take their id as --audience-id.
create prints the new id (or the saved audience with --json).

Demographics (each optional; they shape the persona, they filter nothing):
${DEMOGRAPHIC_FLAGS.map(({ flag, values }) => `  --${flag.padEnd(22)} ${values.join(", ")}`).join("\n")}`;

const CREATE_OPTIONS = Object.fromEntries([
  ["name", { type: "string" }],
  ["description", { type: "string" }],
  ["json", { type: "boolean" }],
  ...DEMOGRAPHIC_FLAGS.map(({ flag }) => [flag, { type: "string" }]),
]) as Record<string, { type: "string" | "boolean" }>;

export async function audiencesCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    const { values } = parseFlags(rest, { json: { type: "boolean" } });
    const { data } = await clientFromEnv(env).audiences.list();
    if (values.json) return void out.write(jsonOutput(data));
    if (data.audiences.length === 0) return void out.write("no saved audiences yet: adrank audiences create --name …\n");
    for (const a of data.audiences) {
      const demo = Object.entries(a.demographics ?? {}).map(([k, v]) => `${k}=${v}`).join(" ");
      out.write(`${a.id}  ${a.name}${demo ? `  (${demo})` : ""}\n`);
    }
    return;
  }
  if (sub === "create") {
    const { values } = parseFlags(rest, CREATE_OPTIONS);
    const request = createAudienceRequestOf(values);
    const { data } = await clientFromEnv(env).audiences.create(request);
    out.write(values.json ? jsonOutput(data) : `${data.id}\n`);
    return;
  }
  if (!sub) throw new UsageError("give list or create");
  const suggestion = didYouMean(sub, ["list", "create"]);
  throw new UsageError(`unknown audiences command "${sub}"${suggestion || "; give list or create"}`, { seeHelp: false });
}
