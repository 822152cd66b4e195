#!/usr/bin/env node
// The adrank command line. Key from ADRANK_API_KEY, address from ADRANK_BASE_URL.
import { AUDIENCES_HELP, audiencesCommand } from "./commands/audiences.ts";
import { PAIRWISE_HELP, pairwiseCommand } from "./commands/pairwise.ts";
import { RANK_HELP, rankCommand } from "./commands/rank.ts";
import { errorLine } from "./error-line.ts";
import { UsageError } from "./usage-error.ts";

const HELP = `adrank: rank ad creatives for an audience, from your terminal

${RANK_HELP}

${PAIRWISE_HELP}

${AUDIENCES_HELP}

Environment: ADRANK_API_KEY (required), ADRANK_BASE_URL (default http://127.0.0.1:8080).`;

const COMMANDS = { rank: [rankCommand, RANK_HELP], pairwise: [pairwiseCommand, PAIRWISE_HELP], audiences: [audiencesCommand, AUDIENCES_HELP] } as const;

const [name, ...args] = process.argv.slice(2);
try {
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${HELP}\n`);
  } else if (!(name in COMMANDS)) {
    throw new UsageError(`unknown command: ${name}`);
  } else {
    const [run, help] = COMMANDS[name as keyof typeof COMMANDS];
    if (args.includes("--help") || args.includes("-h")) process.stdout.write(`${help}\n`);
    else await run(args, process.env, process.stdout);
  }
} catch (err) {
  // parseArgs reports unknown flags with a TypeError carrying this code.
  const usage = (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? new UsageError((err as Error).message) : err;
  const { line, code } = errorLine(usage);
  process.stderr.write(`${line}\n`);
  process.exitCode = code;
}
