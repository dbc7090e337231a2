import assert from "node:assert/strict";
import { exampleOf, operationsByApi, serverPath, tryOutUrl } from "./openapi-model.ts";

const DOC = {
  servers: [{ url: "http://gw.test/external/v1" }],
  paths: {
    "/external/v1/fm/cells/{id}": {
      get: {
        tags: ["fm"],
        summary: "One cell",
        security: [{ clientCredentials: ["api:read:grid-elements"] }],
        parameters: [{ name: "id", in: "path", required: true }],
        responses: { "200": {}, default: {} },
      },
    },
  },
};

Deno.test("operationsByApi() lists gsm, dm, pq and fm, each operation with its scope", () => {
  const apis = operationsByApi(DOC);
  assert.deepEqual(Object.keys(apis), ["gsm", "dm", "pq", "fm"]);
  assert.equal(apis.fm![0]!.method, "GET");
  assert.deepEqual(apis.fm![0]!.scopes, ["api:read:grid-elements"]);
  assert.equal(apis.fm![0]!.successStatus, "200");
});

Deno.test("tryOutUrl() fills path parameters, encodes them and skips empty query values", () => {
  const op = {
    path: "/external/v1/fm/cells/{id}",
    parameters: [
      { name: "id", in: "path" as const, required: true, description: "" },
      { name: "page", in: "query" as const, required: false, description: "" },
    ],
  };
  assert.equal(
    tryOutUrl("/external/v1", op, { id: "a/b", page: "" }),
    "/external/v1/fm/cells/a%2Fb",
  );
  assert.equal(
    tryOutUrl("/external/v1/", op, { id: "c", page: "2" }),
    "/external/v1/fm/cells/c?page=2",
  );
  assert.equal(serverPath(DOC, "http://localhost"), "/external/v1");
});

Deno.test("exampleOf() starts a try-out body from the schema: required fields, refs, enums", () => {
  const doc = {
    components: {
      schemas: {
        Period: {
          type: "object",
          required: ["start"],
          properties: {
            start: { type: "string", format: "date-time" },
            note: { type: "string" },
          },
        },
      },
    },
  };
  const body = {
    type: "object",
    required: ["name", "standard", "period", "feeders", "limit"],
    properties: {
      name: { type: "string", example: "Week 47" },
      standard: { type: "string", enum: ["EN50160", "CUSTOM"] },
      period: { $ref: "#/components/schemas/Period" },
      feeders: { type: "array", minItems: 1, items: { type: "string" } },
      limit: { anyOf: [{ type: "null" }, { type: "integer", minimum: 3 }] },
      optional: { type: "boolean" },
    },
  };
  assert.deepEqual(exampleOf(body, doc), {
    name: "Week 47",
    standard: "EN50160",
    period: { start: "1970-01-01T00:00:00.000Z" },
    feeders: [""],
    limit: 3,
  });
  // A body without a schema (or an operation without a body) starts as {}.
  assert.deepEqual(exampleOf(undefined, doc), {});
  // A reference cycle ends instead of recursing for ever.
  const cyclic = { components: { schemas: { A: { $ref: "#/components/schemas/A" } } } };
  assert.deepEqual(exampleOf({ $ref: "#/components/schemas/A" }, cyclic), {});
});
