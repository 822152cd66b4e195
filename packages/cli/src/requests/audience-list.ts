import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { audienceNameKey, checkAudiences, LIMITS, type AudienceItemInput } from "@adrank/sdk";
import { UsageError } from "../usage-error.ts";

/** One audience flag as typed, in command-line order. */
export type AudienceChoice = { kind: "name"; name: string } | { kind: "id"; id: string } | { kind: "file"; path: string };

/** Where an audience came from, to name it in a message. */
export type AudienceSource = { kind: "name"; name: string } | { kind: "id"; id: string } | { kind: "file"; path: string; index: number };

export interface AudienceEntry {
  item: AudienceItemInput;
  source: AudienceSource;
}

const FLAG_KIND = { "audience-name": "name", "audience-id": "id", audiences: "file" } as const;

/**
 * The audience flags in the order they were typed, which is the order of the audiences (and of
 * the matrix's columns); parseArgs' values keep the order within one flag only. Run after
 * parseFlags has accepted the arguments.
 */
export function audienceChoicesOf(args: string[], options: ParseArgsOptionsConfig): AudienceChoice[] {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, allowNegative: true, strict: false, tokens: true });
  const choices: AudienceChoice[] = [];
  for (const token of tokens) {
    if (token.kind !== "option" || token.value === undefined || !(token.name in FLAG_KIND)) continue;
    const kind = FLAG_KIND[token.name as keyof typeof FLAG_KIND];
    choices.push(kind === "name" ? { kind, name: token.value } : kind === "id" ? { kind, id: token.value } : { kind, path: token.value });
  }
  return choices;
}

/** "--audience-name \"Runners\"", "--audience-id aud_1", "item 2 of audiences.json". */
export function sourceText(source: AudienceSource): string {
  if (source.kind === "name") return `--audience-name ${JSON.stringify(source.name)}`;
  if (source.kind === "id") return `--audience-id ${source.id}`;
  return `item ${source.index + 1} of ${source.path}`;
}

/** --audience-description describes the one --audience-name; with none or several it would be a guess. */
function checkDescription(choices: readonly AudienceChoice[], description: string | undefined): void {
  if (description === undefined) return;
  const names = choices.filter((c) => c.kind === "name").length;
  if (names === 1) return;
  if (names > 1) throw new UsageError(`--audience-description goes with exactly one --audience-name, not ${names}; to describe several audiences, give them in an --audiences file`);
  if (choices.some((c) => c.kind === "id")) throw new UsageError("--audience-description goes with --audience-name; a saved audience has its own");
  throw new UsageError("--audience-description goes with --audience-name; in an --audiences file each audience has its own description");
}

/**
 * The audiences the flags give, in order: each --audience-name (with --audience-description
 * when it is the only one), each --audience-id, and each item of each --audiences file where
 * that flag stands. `files` holds each file's items, as read.
 */
export function audienceEntriesOf(choices: readonly AudienceChoice[], description: string | undefined, files: ReadonlyMap<string, readonly unknown[]>): AudienceEntry[] {
  checkDescription(choices, description);
  return choices.flatMap((choice): AudienceEntry[] => {
    if (choice.kind === "name") return [{ item: { name: choice.name, ...(description === undefined ? {} : { description }) }, source: choice }];
    if (choice.kind === "id") return [{ item: { audience_id: choice.id }, source: choice }];
    return (files.get(choice.path) ?? []).map((item, index) => ({ item: item as AudienceItemInput, source: { kind: "file", path: choice.path, index } }));
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// The API's sentence names `audiences[3].demographics.ageRange`; the CLI names the flag or the file's item.
const FLAG_OF_FIELD: Record<string, string> = { name: "--audience-name", description: "--audience-description", audience_id: "--audience-id" };

function usageOf(entry: AudienceEntry, index: number, error: string): UsageError {
  const prefix = `audiences[${index}]`;
  const rest = (error.startsWith(prefix) ? error.slice(prefix.length) : ` ${error}`).replace(/\.$/, "");
  if (entry.source.kind === "file") return new UsageError(`--audiences ${entry.source.path}: item ${entry.source.index + 1}${rest.startsWith(".") ? `: ${rest.slice(1)}` : rest}`);
  const field = /^\.(\w+)/.exec(rest)?.[1];
  const flag = field === undefined ? undefined : FLAG_OF_FIELD[field];
  return new UsageError(flag ? `${flag}${rest.slice(field!.length + 1)}` : `${sourceText(entry.source)}${rest}`);
}

/**
 * Checks what the API would refuse, before anything is read or sent: 1 to 5 audiences (one is
 * a plain ranking), each an object of one of the two forms with valid fields (the API's own
 * check, via the SDK), no name twice (compared as the API compares them) and no id twice.
 * A saved audience's name is known only to the server, which checks it too.
 */
export function checkAudienceEntries(entries: readonly AudienceEntry[]): void {
  if (entries.length === 0) throw new UsageError("give --audience-id <saved audience> or --audience-name <name> (repeat them, or give --audiences <file.json>, to compare 2 to 5 audiences)");
  if (entries.length > LIMITS.audiencesMax) {
    throw new UsageError(`${entries.length} audiences given; a comparison takes ${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} (run it again with the others)`);
  }
  for (const { item, source } of entries) {
    if (source.kind !== "file") continue;
    const where = `--audiences ${source.path}: item ${source.index + 1}`;
    if (!isObject(item)) throw new UsageError(`${where} is not an object; give {"name": "…"} or {"audience_id": "…"}`);
    if (!("name" in item) && !("audience_id" in item)) throw new UsageError(`${where} has neither "name" nor "audience_id"`);
  }
  const byName = new Map<string, AudienceEntry>();
  const byId = new Map<string, AudienceEntry>();
  for (const entry of entries) {
    const { name, audience_id: id } = entry.item as Record<string, unknown>;
    const [seen, key] = typeof name === "string" ? [byName, audienceNameKey(name)] : typeof id === "string" ? [byId, id] : [null, ""];
    if (seen === null) continue;
    const earlier = seen.get(key);
    const why = seen === byName ? "the same name (names are compared without regard to case or surrounding spaces)" : "the same saved audience";
    if (earlier) throw new UsageError(`${sourceText(earlier.source)} and ${sourceText(entry.source)} are ${why}`);
    seen.set(key, entry);
  }
  // The API's check wants two audiences at least; one is checked beside a saved one, which cannot clash with it.
  const items = entries.map((e) => e.item);
  const checked = checkAudiences(items.length === 1 ? [...items, { audience_id: "aud_placeholder" }] : items);
  if (checked.ok) return;
  const index = Number(/^audiences\[(\d+)\]/.exec(checked.field ?? "")?.[1]);
  const entry = entries[index];
  throw entry ? usageOf(entry, index, checked.error) : new UsageError(checked.error.replace(/\.$/, ""));
}
