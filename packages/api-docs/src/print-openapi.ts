// Prints the OpenAPI document: `node packages/api-docs/src/print-openapi.ts > openapi.json`.
import { buildOpenApiDocument } from "./document.ts";

process.stdout.write(JSON.stringify(buildOpenApiDocument(), null, 2) + "\n");
