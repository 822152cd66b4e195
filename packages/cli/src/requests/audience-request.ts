import { DEMOGRAPHIC_VALUES, type CreateAudienceInput } from "@adrank/sdk";
import { UsageError } from "../usage-error.ts";

const kebab = (camel: string) => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** One flag per demographics field of the spec: ageRange is --age-range. */
export const DEMOGRAPHIC_FLAGS = Object.entries(DEMOGRAPHIC_VALUES).map(([field, values]) => ({ field, flag: kebab(field), values: values as readonly string[] }));

/**
 * The body of `audiences create` from its flags. Values outside the spec's lists are passed
 * on as given: the server owns validation and names the field in its 422.
 */
export function createAudienceRequestOf(flags: Record<string, string | boolean | undefined>): CreateAudienceInput {
  const name = flags.name;
  if (typeof name !== "string" || name.trim() === "") throw new UsageError("give --name <name>");
  const demographics = Object.fromEntries(DEMOGRAPHIC_FLAGS.filter(({ flag }) => typeof flags[flag] === "string").map(({ field, flag }) => [field, flags[flag] as string]));
  return {
    name,
    ...(typeof flags.description === "string" ? { description: flags.description } : {}),
    ...(Object.keys(demographics).length > 0 ? { demographics } : {}),
  } as CreateAudienceInput;
}
