// Prints the OpenAPI document: `node packages/contracts/src/print-openapi.ts > openapi.json`.
import { buildOpenApiDocument } from "./openapi/document.ts";

process.stdout.write(JSON.stringify(buildOpenApiDocument(), null, 2) + "\n");
