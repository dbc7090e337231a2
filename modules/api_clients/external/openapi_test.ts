import assert from "node:assert/strict";
import { GridSetupService } from "../../grid/mod.ts";
import type { Db, EventBus } from "../../../kernel/mod.ts";
import { openApi31Problems } from "../../../tests/helpers/openapi_check.ts";
import { externalOpenApi } from "./openapi.ts";
import { type ExternalDeps, externalV1Routes } from "./routes.ts";

/** The document as the server builds it (the routes are only listed, never called). */
function document() {
  const deps = {
    setup: new GridSetupService({} as Db, {} as EventBus),
    pq: {},
    ratePerMinute: 600,
  } as unknown as ExternalDeps;
  return externalOpenApi(externalV1Routes(deps), {
    tokenUrl: "https://gridwatch.example/oidc/token",
    serverUrl: "https://gridwatch.example/external/v1",
    version: "1.0.0",
  }) as Record<string, unknown> & {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
}

Deno.test("the external_v1 document validates against the official OpenAPI 3.1 schema", () => {
  assert.deepEqual(openApi31Problems(document()), []);
});

Deno.test("the validator finds what is wrong with a document", () => {
  const broken = document();
  const [path, ops] = Object.entries(broken.paths).find(([p]) => p.includes("{"))!;
  delete (Object.values(ops)[0] as { parameters?: unknown }).parameters;
  assert.ok(openApi31Problems(broken).some((p) => p.includes(path)));
  const noInfo = document();
  delete noInfo.info;
  assert.ok(openApi31Problems(noInfo).some((p) => p.includes("info")));
  const wrongSchema = document();
  (wrongSchema.components as { schemas: Record<string, unknown> }).schemas.FleetCell = {
    type: "objet",
  };
  assert.ok(openApi31Problems(wrongSchema).some((p) => p.startsWith("FleetCell")));
});

Deno.test("every operation documents its scope, its errors and the pq and fm routes", () => {
  const doc = document();
  const pq = Object.keys(doc.paths).filter((p) => p.startsWith("/external/v1/pq/"));
  assert.deepEqual(pq.sort(), [
    "/external/v1/pq/events",
    "/external/v1/pq/events/{key}",
    "/external/v1/pq/events/{key}/recording",
    "/external/v1/pq/reports",
    "/external/v1/pq/reports/{key}",
    "/external/v1/pq/reports/{key}/csv",
    "/external/v1/pq/reports/{key}/pdf",
  ]);
  const scope = (path: string, method: string) =>
    (doc.paths[path]![method]!.security as Record<string, string[]>[])[0]!.clientCredentials;
  assert.deepEqual(scope("/external/v1/pq/reports", "get"), ["api:read:data"]);
  assert.deepEqual(scope("/external/v1/pq/reports", "post"), ["api:write:data"]);
  assert.deepEqual(scope("/external/v1/pq/events/{key}/recording", "post"), ["api:write:data"]);
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const statuses = Object.keys(op.responses as object);
      for (const s of ["401", "403", "429"]) assert.ok(statuses.includes(s), `${method} ${path}`);
      if (path.includes("{")) assert.ok(statuses.includes("404"), `${method} ${path}`);
    }
  }
  const schemas = (doc.components as { schemas: Record<string, { required?: string[] }> }).schemas;
  assert.ok(schemas.FleetCell!.required!.includes("mapping"));
});
