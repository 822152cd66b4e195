import type { ApiReferenceConfiguration } from "@scalar/fastify-api-reference";

/**
 * Scalar's settings for a page that loads nothing from the internet and sends nothing out:
 * no hosted fonts, no telemetry, no AI agent or MCP features, no links that open the
 * document in Scalar's hosted client. The code samples are ours (x-codeSamples); Scalar's
 * generated clients are hidden so a reader sees only calls we test.
 */
export function scalarConfiguration(documentUrl: string): Partial<ApiReferenceConfiguration> {
  return {
    url: documentUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: "never",
    hiddenClients: true,
    documentDownloadType: "json",
    defaultOpenAllTags: true,
    persistAuth: false,
    authentication: { preferredSecurityScheme: "bearerAuth" },
  };
}
