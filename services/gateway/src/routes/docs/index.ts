import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "@adrank/api-docs";
import { DOCS_CONTENT_SECURITY_POLICY } from "./content-security-policy.ts";
import { encodedAsset } from "./encoded-asset.ts";
import { FAVICON_SVG } from "./favicon.ts";
import { docsPage } from "./page.ts";
import { readScalarBundle } from "./scalar-bundle.ts";
import { scalarConfiguration } from "./scalar-configuration.ts";
import { ZOD_JITLESS_SCRIPT } from "./zod-jitless-script.ts";

const DOCS_PATH = "/docs";
/** The document the page renders; /docs/json since the Swagger UI days, so links keep working. */
const DOCUMENT_PATH = "/docs/json";
const SCALAR_PREFIX = "/docs/scalar";
/** Where @scalar/fastify-api-reference served the bundle it ships (routePrefix + "/js/scalar.js"); still served, revalidated on each use. */
const SCALAR_BUNDLE_PATH = `${SCALAR_PREFIX}/js/scalar.js`;
/** The bundle under a name that changes with its content, which the page loads: cached for a year. */
const hashedBundlePath = (hash: string) => `${SCALAR_PREFIX}/js/scalar.${hash}.js`;
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, no-cache";
const ZOD_JITLESS_PATH = "/docs/zod-jitless.js";
const FAVICON_PATH = "/docs/favicon.svg";

/** GET /docs: the API reference (Scalar), from this server's own files; the page loads nothing from the internet. */
export default async function docsRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument() as { info: { title: string; summary: string } };
  // About 15 ms at start-up (the plugin's bytes and their hash); compressed on first request.
  const bundle = encodedAsset(await readScalarBundle(), "application/javascript; charset=utf-8");
  const bundlePath = hashedBundlePath(bundle.hash);
  const page = docsPage({
    title: `${document.info.title} reference`,
    description: document.info.summary,
    iconUrl: FAVICON_PATH,
    scriptUrls: [ZOD_JITLESS_PATH, bundlePath],
    configuration: scalarConfiguration(DOCUMENT_PATH),
  });

  app.get(bundlePath, async (request, reply) => bundle.send(request, reply, IMMUTABLE));
  app.get(SCALAR_BUNDLE_PATH, async (request, reply) => bundle.send(request, reply, REVALIDATE));
  // Where the plugin's own page was (its inline script breaks under our policy): send readers to ours.
  app.get(SCALAR_PREFIX, async (_request, reply) => reply.redirect(DOCS_PATH));
  app.get(`${SCALAR_PREFIX}/`, async (_request, reply) => reply.redirect(DOCS_PATH));

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
