import Fastify from "fastify";
import scalarApiReference from "@scalar/fastify-api-reference";

/**
 * The bundle @scalar/fastify-api-reference ships (about 4.9 MB of JavaScript). The package
 * exposes it only through its route, so it is read once from a private, never-listening
 * instance of the plugin: the bytes are the plugin's own, whatever version is installed.
 */
export async function readScalarBundle(): Promise<Buffer> {
  const reader = Fastify({ logger: false });
  try {
    await reader.register(scalarApiReference, { routePrefix: "/", configuration: { url: "/" } });
    const res = await reader.inject({ method: "GET", url: "/js/scalar.js" });
    if (res.statusCode !== 200) throw new Error(`the Scalar plugin served its bundle with status ${res.statusCode}`);
    return res.rawPayload;
  } finally {
    await reader.close();
  }
}
