import { parseArgs } from "node:util";
import { createAudienceRequestOf, DEMOGRAPHIC_FLAGS } from "../requests/audience-request.ts";
import { clientFromEnv } from "../settings.ts";
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
    const { values } = parseArgs({ args: rest, options: { json: { type: "boolean" } } });
    const { data } = await clientFromEnv(env).audiences.list();
    if (values.json) return void out.write(`${JSON.stringify(data, null, 2)}\n`);
    if (data.audiences.length === 0) return void out.write("no saved audiences yet: adrank audiences create --name …\n");
    for (const a of data.audiences) {
      const demo = Object.entries(a.demographics ?? {}).map(([k, v]) => `${k}=${v}`).join(" ");
      out.write(`${a.id}  ${a.name}${demo ? `  (${demo})` : ""}\n`);
    }
    return;
  }
  if (sub === "create") {
    const { values } = parseArgs({ args: rest, options: CREATE_OPTIONS });
    const { data } = await clientFromEnv(env).audiences.create(createAudienceRequestOf(values));
    out.write(values.json ? `${JSON.stringify(data, null, 2)}\n` : `${data.id}\n`);
    return;
  }
  throw new UsageError(sub ? `unknown audiences command: ${sub}` : "give list or create");
}
