import { ConfigError } from "@adrank/runtime";
import { expect } from "vitest";
import { modelsFromEnv } from "../../src/index.ts";

/** The message of the ConfigError that `modelsFromEnv(env)` must throw: one line per bad variable. */
export function configError(env: Record<string, string>): string {
  try {
    modelsFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return String((err as Error).message);
  }
  throw new Error("expected a ConfigError");
}
