import { anthropicCapabilityRows } from "./anthropic.ts";
import { bedrockCapabilityRows } from "./bedrock.ts";
import type { CapabilityRow } from "./capability-row.ts";
import { geminiCapabilityRows } from "./gemini.ts";
import { openaiCapabilityRows } from "./openai.ts";

/** Every family the adapters know, provider by provider: the one table behind docs/models.md. */
export function allCapabilityRows(): CapabilityRow[] {
  return [...openaiCapabilityRows(), ...anthropicCapabilityRows(), ...geminiCapabilityRows("gemini"), ...geminiCapabilityRows("vertex"), ...bedrockCapabilityRows()];
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/**
 * The capability table as Markdown, exactly as docs/models.md holds it (a test compares them,
 * so the documentation cannot drift from what the adapters send).
 */
export function capabilityTableMarkdown(rows: readonly CapabilityRow[] = allCapabilityRows()): string {
  const header = ["provider", "family", "roles", "temperature", "token limit", "reasoning / thinking", "complete answer", "API version", "source"];
  const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const r of rows) {
    lines.push(`| ${[r.provider, r.family, r.roles.join(", "), r.temperature, r.tokenLimit, r.reasoning, r.usableStops, r.apiVersion, r.source].map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}
