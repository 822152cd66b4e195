#!/usr/bin/env node
// The adrank command line. Key from ADRANK_API_KEY, address from ADRANK_BASE_URL.
import { AUDIENCES_HELP, audiencesCommand } from "./commands/audiences.ts";
import { CALIBRATION_HELP, calibrationCommand } from "./commands/calibration.ts";
import { EVAL_HELP } from "./commands/eval-help.ts";
import { GET_HELP, getCommand } from "./commands/get.ts";
import { OUTCOMES_HELP, outcomesCommand } from "./commands/outcomes.ts";
import { PAIRWISE_HELP, pairwiseCommand } from "./commands/pairwise.ts";
import { RANK_HELP, rankCommand } from "./commands/rank.ts";
import { errorLine } from "./error-line.ts";
import { baseUrlOf, DEFAULT_BASE_URL } from "./settings.ts";
import { didYouMean } from "./suggestion.ts";
import { UsageError } from "./usage-error.ts";
import { cliVersion } from "./version.ts";

const HELP = `adrank: rank ad creatives for an audience, from your terminal

${RANK_HELP}

${PAIRWISE_HELP}

${GET_HELP}

${AUDIENCES_HELP}

${EVAL_HELP}

${OUTCOMES_HELP}

${CALIBRATION_HELP}

adrank --version                print the version (also -v, adrank version)
adrank <command> --help         the help of one command

Environment: ADRANK_API_KEY (required), ADRANK_BASE_URL (default ${DEFAULT_BASE_URL}; the API,
not the console; https://, or http:// only to this machine unless ADRANK_ALLOW_INSECURE_HTTP=true).
Both are checked before any image is read or any request is made.`;

// Loaded only when run: eval alone needs the statistics, the CSV reader and the report.
const evalCommand = async (args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream) => (await import("./commands/eval.ts")).evalCommand(args, env, out);
const COMMANDS = { rank: [rankCommand, RANK_HELP], pairwise: [pairwiseCommand, PAIRWISE_HELP], get: [getCommand, GET_HELP], audiences: [audiencesCommand, AUDIENCES_HELP], eval: [evalCommand, EVAL_HELP], outcomes: [outcomesCommand, OUTCOMES_HELP], calibration: [calibrationCommand, CALIBRATION_HELP] } as const;
const GLOBAL_FLAGS = ["--help", "--version"];

const [name, ...args] = process.argv.slice(2);
try {
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${HELP}\n`);
  } else if (name === "--version" || name === "-v" || name === "-V" || name === "version") {
    process.stdout.write(`adrank ${cliVersion()}\n`);
  } else if (name.startsWith("-")) {
    const suggestion = didYouMean(name, GLOBAL_FLAGS, false);
    throw new UsageError(`unknown flag ${name}${suggestion || "; give a command first: rank, pairwise, get, audiences, eval, outcomes or calibration"}`, { seeHelp: suggestion === "" });
  } else if (!(name in COMMANDS)) {
    const suggestion = didYouMean(name, [...Object.keys(COMMANDS), "help", "version"]);
    throw new UsageError(`unknown command "${name}"${suggestion || "; the commands are rank, pairwise, get, audiences, eval, outcomes and calibration"}`, { seeHelp: suggestion === "" });
  } else {
    const [run, help] = COMMANDS[name as keyof typeof COMMANDS];
    if (args.includes("--help") || args.includes("-h")) process.stdout.write(`${help}\n`);
    else await run(args, process.env, process.stdout);
  }
} catch (err) {
  const { line, code } = errorLine(err, baseUrlOf(process.env));
  process.stderr.write(`${line}\n`);
  process.exitCode = code;
}
