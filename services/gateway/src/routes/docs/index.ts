import scalarApiReference from "@scalar/fastify-api-reference";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { buildOpenApiDocument } from "@adrank/api-docs";
import { DOCS_CONTENT_SECURITY_POLICY } from "./content-security-policy.ts";
import { FAVICON_SVG } from "./favicon.ts";
import { docsPage } from "./page.ts";
import { scalarConfiguration } from "./scalar-configuration.ts";
import { ZOD_JITLESS_SCRIPT } from "./zod-jitless-script.ts";

const DOCS_PATH = "/docs";
/** The document the page renders; /docs/json since the Swagger UI days, so links keep working. */
const DOCUMENT_PATH = "/docs/json";
const SCALAR_PREFIX = "/docs/scalar";
/** Where @scalar/fastify-api-reference serves the bundle it ships (routePrefix + "/js/scalar.js"). */
const SCALAR_BUNDLE_PATH = `${SCALAR_PREFIX}/js/scalar.js`;
const ZOD_JITLESS_PATH = "/docs/zod-jitless.js";
const FAVICON_PATH = "/docs/favicon.svg";

/**
 * The plugin also serves a page of its own, whose inline script our policy blocks; send
 * anyone who finds it to the real one.
 */
async function bundleOnly(request: FastifyRequest, reply: FastifyReply) {
  if (request.url.split("?")[0] !== SCALAR_BUNDLE_PATH) return reply.redirect(DOCS_PATH);
}

/** GET /docs: the API reference (Scalar), from this server's own files; the page loads nothing from the internet. */
export default async function docsRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument() as { info: { title: string; summary: string } };
  const page = docsPage({
    title: `${document.info.title} reference`,
    description: document.info.summary,
    iconUrl: FAVICON_PATH,
    scriptUrls: [ZOD_JITLESS_PATH, SCALAR_BUNDLE_PATH],
    configuration: scalarConfiguration(DOCUMENT_PATH),
  });

  // Only for the bundle Scalar ships in the package; the plugin's own page sends readers to ours.
  await app.register(scalarApiReference, { routePrefix: SCALAR_PREFIX, configuration: { url: DOCUMENT_PATH }, hooks: { onRequest: bundleOnly } });

  app.get(DOCS_PATH, async (_request, reply) =>
    reply
      .header("content-type", "text/html; charset=utf-8")
      .header("content-security-policy", DOCS_CONTENT_SECURITY_POLICY)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .send(page),
  );
  app.get(`${DOCS_PATH}/`, async (_request, reply) => reply.redirect(DOCS_PATH));
  app.get(DOCUMENT_PATH, async () => document);
  app.get(FAVICON_PATH, async (_request, reply) => reply.header("content-type", "image/svg+xml").send(FAVICON_SVG));
  app.get(ZOD_JITLESS_PATH, async (_request, reply) => reply.header("content-type", "application/javascript; charset=utf-8").send(ZOD_JITLESS_SCRIPT));
}
