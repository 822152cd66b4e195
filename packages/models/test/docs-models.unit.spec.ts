import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { capabilityTableMarkdown } from "../src/index.ts";

const page = readFileSync(new URL("../../../docs/models.md", import.meta.url), "utf8");

describe("docs/models.md", () => {
  it("holds exactly the capability table the rules files produce (npm run models -- table)", () => {
    const inPage = /<!-- capability-table:start -->\n([\s\S]*?)\n<!-- capability-table:end -->/.exec(page)?.[1];
    expect(inPage).toBe(capabilityTableMarkdown());
  });

  it("documents every profile kind", () => {
    for (const kind of ["openai", "azure", "openrouter", "ollama", "compatible", "anthropic", "gemini", "vertex", "bedrock"]) expect(page).toContain(`\`${kind}\``);
  });
});
