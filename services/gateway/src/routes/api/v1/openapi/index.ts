import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "@adrank/api-docs";

/** GET /api/v1/openapi.json: the machine-readable contract (OpenAPI 3.1, version 1.1.0). Public. */
export default async function openApiRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument();
  app.get("/openapi.json", async () => document);
}
