import assert from "node:assert/strict";
import { operationsByApi, serverPath, tryOutUrl } from "./openapi-model.ts";

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
