import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "./suggestion.ts";
import { UsageError } from "./usage-error.ts";

type Options = Record<string, { type: "string" | "boolean" }>;

/** Every spelling a command accepts, as typed: --json, and --no-refine where negation is on. */
export function flagNames(options: Options, allowNegative = false): string[] {
  const names = Object.keys(options).map((n) => `--${n}`);
  const negated = allowNegative ? Object.entries(options).filter(([, o]) => o.type === "boolean").map(([n]) => `--no-${n}`) : [];
  return [...names, ...negated];
}

/**
 * The first problem with the flags, in a sentence: an unknown flag (with the one that was
 * probably meant), a missing value, a value given to a switch. Null when there is none. Read
 * from parseArgs' tokens, because its own errors are long and name no alternative.
 */
export function flagProblem(args: string[], options: Options, allowNegative = false): UsageError | null {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, allowNegative, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    // --no-goal is not a way to write --goal: only switches have a negative.
    const option = token.rawName.startsWith("--no-") && options[token.name]?.type === "string" ? undefined : options[token.name];
    if (!option) {
      const suggestion = didYouMean(token.rawName, flagNames(options, allowNegative), false);
      return new UsageError(`unknown flag ${token.rawName}${suggestion}`, { seeHelp: suggestion === "" });
    }
    if (option.type === "string" && (token.value === undefined || (!token.inlineValue && token.value.startsWith("-")))) {
      return new UsageError(`${token.rawName} needs a value${token.value === undefined ? "" : ` (for one starting with "-", write ${token.rawName}=${token.value})`}`);
    }
    if (option.type === "boolean" && token.inlineValue) return new UsageError(`${token.rawName} takes no value`);
  }
  return null;
}

/**
 * parseArgs for a command's flags, with every mistake a UsageError that names the flag.
 *
 * @example
 * parseFlags(["a.png", "--jsn"], { json: { type: "boolean" } }, { allowPositionals: true });
 * // throws UsageError: unknown flag --jsn; did you mean --json?
 */
export function parseFlags<O extends Options>(args: string[], options: O, { allowPositionals = false, allowNegative = false } = {}) {
  const problem = flagProblem(args, options, allowNegative);
  if (problem) throw problem;
  try {
    return parseArgs({ args, options, allowPositionals, allowNegative, strict: true } satisfies ParseArgsConfig);
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const extra = parseArgs({ args, options, allowPositionals: true, allowNegative, strict: false }).positionals[0];
      throw new UsageError(`unexpected argument "${extra}"`);
    }
    // Anything else parseArgs refuses, on one line without its unbalanced quotes.
    throw new UsageError((err as Error).message.split("\n")[0]!.replace(/'/g, ""));
  }
}
