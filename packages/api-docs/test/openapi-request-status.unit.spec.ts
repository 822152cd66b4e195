import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { RequestStatus } from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";

// The status body of an asynchronous request (202 of POST, and of GET while it runs; 200 of
// GET after it failed), checked with zod (contracts' RequestStatus) and with the JSON Schema the document publishes.

const doc = buildOpenApiDocument() as { components: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
const documented = ajv.compile({ $ref: "doc#/components/schemas/RequestStatus" });

const ID = "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35";
const accepted = {
  object: "request",
  request_id: ID,
  operation: "rank",
  status: "running",
  created_at: "2025-09-14T08:21:40.118Z",
  finished_at: null,
  progress: { done: 0, total: 8, unit: "assets" },
  result_url: `/api/v1/requests/${ID}`,
  webhook: { url: "https://hooks.example.com/adrank", state: "pending", attempts: 0 },
  error: null,
};
type Status = Record<string, unknown>;
const status = (change: Status): Status => ({ ...accepted, ...change });

const shapes: Array<[string, Status]> = [
  ["the 202 of a rank with a webhook", accepted],
  ["the 202 of a pairwise request without a webhook", status({ operation: "pairwise", progress: { done: 0, total: 3, unit: "pairs" }, webhook: null })],
  ["a running request half done, its webhook waiting", status({ progress: { done: 4, total: 8, unit: "assets" } })],
  ["a failed request with its reason and a delivered webhook", status({ status: "failed", finished_at: "2025-09-14T08:23:41.002Z", error: "No scoring model answered in time. Nothing was charged.", webhook: { url: "https://hooks.example.com/adrank", state: "delivered", attempts: 3 } })],
  ["a failed request whose webhook gave up", status({ status: "failed", finished_at: "2025-09-14T08:23:41Z", error: "x", webhook: { url: "https://hooks.example.com/adrank", state: "failed", attempts: 17 } })],
  ["a succeeded request (its status, as the console shows it)", status({ status: "succeeded", finished_at: "2025-09-14T08:22:10.500Z", progress: { done: 8, total: 8, unit: "assets" } })],
];

const bad: Array<[string, Status]> = [
  ["an unknown status", status({ status: "done" })],
  ["an unknown operation", status({ operation: "score" })],
  ["object other than request", status({ object: "rank" })],
  ["a request_id that is no UUID", status({ request_id: "req_123" })],
  ["created_at that is no ISO date-time", status({ created_at: "14/09/2025 08:21" })],
  ["no progress", (({ progress: _p, ...rest }) => rest)(accepted)],
  ["a progress total of 0", status({ progress: { done: 0, total: 0, unit: "assets" } })],
  ["negative progress", status({ progress: { done: -1, total: 2, unit: "assets" } })],
  ["a progress unit of images", status({ progress: { done: 0, total: 2, unit: "images" } })],
  ["an unknown webhook state", status({ webhook: { url: "https://hooks.example.com/adrank", state: "sent", attempts: 1 } })],
  ["a webhook without attempts", status({ webhook: { url: "https://hooks.example.com/adrank", state: "pending" } })],
  ["error left out rather than null", (({ error: _e, ...rest }) => rest)(accepted)],
];

describe("RequestStatus", () => {
  it.each(shapes)("accepts %s", (_name, body) => {
    expect(RequestStatus.safeParse(body).success).toBe(true);
    expect(documented(body), JSON.stringify(documented.errors)).toBe(true);
  });

  it.each(bad)("refuses %s", (_name, body) => {
    expect(RequestStatus.safeParse(body).success).toBe(false);
    expect(documented(body)).toBe(false);
  });

  it("describes each field a client reads", () => {
    const schema = (doc.components as { schemas: Record<string, { properties: Record<string, { description?: string }>; required: string[] }> }).schemas.RequestStatus!;
    expect(schema.required).toEqual(expect.arrayContaining(["object", "request_id", "operation", "status", "created_at", "finished_at", "progress", "result_url", "webhook", "error"]));
    for (const field of ["status", "progress", "result_url", "webhook", "error"]) expect(schema.properties[field]!.description, field).toBeTruthy();
  });
});
