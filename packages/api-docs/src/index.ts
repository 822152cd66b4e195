export { buildOpenApiDocument } from "./document.ts";
