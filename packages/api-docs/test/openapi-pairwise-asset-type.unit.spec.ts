import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/index.ts";

describe("PairwiseAsset.asset_type in the document", () => {
  it("is documented as an optional property with the rank request's enum", () => {
    const schemas = (buildOpenApiDocument() as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } }).components.schemas;
    const pairwiseAsset = schemas.PairwiseAsset!;
    expect(pairwiseAsset.required ?? []).not.toContain("asset_type");
    expect(JSON.stringify(pairwiseAsset.properties.asset_type)).toContain("Landing Page Hero");
    const strip = (schema: unknown) => JSON.stringify(schema).replace(/"description":"[^"]*",?/g, "");
    expect(strip(pairwiseAsset.properties.asset_type)).toBe(strip(schemas.AssetInput!.properties.asset_type));
  });
});
