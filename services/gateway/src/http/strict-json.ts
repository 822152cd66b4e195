import type { FastifyInstance } from "fastify";
import { MalformedBodyError } from "../errors/api-errors.ts";
import { jsonShapeProblem, type JsonShapeLimits } from "./json-shape.ts";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * JSON bodies must be UTF-8 (RFC 8259). Fastify decodes bytes leniently, so invalid UTF-8
 * turned into U+FFFD and came back in `asset_id` as something the caller never sent. The
 * bytes are first checked for their shape (depth and item count, json-shape.ts: 400 before
 * anything is built), then decoded strictly; fastify's own parser (with its
 * prototype-poisoning checks) then parses the text. A byte-order mark is dropped, as before.
 */
export function useStrictJsonParser(app: FastifyInstance, bodyLimit: number, shape: JsonShapeLimits): void {
  const parseText = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit }, (request, body, done) => {
    const problem = jsonShapeProblem(body as Buffer, shape);
    if (problem) {
      done(new MalformedBodyError(problem), undefined);
      return;
    }
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      // Mapped to 400 "not valid JSON" like any other syntax error (errors/to-http.ts).
      done(Object.assign(new SyntaxError("The body is not valid UTF-8."), { statusCode: 400 }), undefined);
      return;
    }
    parseText(request, text, done);
  });
}
