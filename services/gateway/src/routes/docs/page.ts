import type { ApiReferenceConfiguration } from "@scalar/fastify-api-reference";

const escapeAttribute = (text: string) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * The docs page. It holds no inline script, so the policy can say script-src 'self': Scalar's
 * scripts load in order from this server; the bundle finds its configuration on the #api-reference element (a JSON block the browser
 * never runs) and mounts the reference in its place.
 */
export function docsPage(opts: { title: string; description: string; iconUrl: string; scriptUrls: string[]; configuration: Partial<ApiReferenceConfiguration> }): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeAttribute(opts.title)}</title>
    <meta name="description" content="${escapeAttribute(opts.description)}" />
    <link rel="icon" type="image/svg+xml" href="${escapeAttribute(opts.iconUrl)}" />
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${escapeAttribute(JSON.stringify(opts.configuration))}"></script>
${opts.scriptUrls.map((url) => `    <script src="${escapeAttribute(url)}"></script>\n`).join("")}  </body>
</html>
`;
}
