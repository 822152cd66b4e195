import fp from "fastify-plugin";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "@adrank/contracts";

declare module "fastify" {
  interface FastifyInstance {
    swagger(): unknown;
  }
}

/**
 * @fastify/swagger-ui reads the document from a `swagger()` decoration of the plugin named
 * "@fastify/swagger". Our document is built by the contracts package, not derived from
 * routes, so this stands in for that plugin and hands the UI the same document.
 */
const documentSource = fp(
  async (app: FastifyInstance) => {
    const document = buildOpenApiDocument();
    app.decorate("swagger", () => document);
  },
  { name: "@fastify/swagger" },
);

/** GET /docs: Swagger UI from the package's own files; the page loads nothing from the internet. */
export default async function docsRoutes(app: FastifyInstance) {
  await app.register(documentSource);
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    uiConfig: { docExpansion: "list", deepLinking: true, validatorUrl: null },
    staticCSP: "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'",
  });
}
