import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { requireApp } from "./auth.ts";
import type { AppEnv } from "./http.ts";
import { validate } from "./http.ts";
import { doc, openApiDocument, routeDocs } from "./openapi.ts";

const feeder = z.object({ id: z.string(), amps: z.number().nullable() }).meta({
  id: "TestFeederDto",
});
const node = z.object({ id: z.string(), feeders: z.array(feeder) }).meta({ id: "TestNodeDto" });

function app() {
  return new Hono<AppEnv>()
    .use("*", requireApp("app:test"))
    .get(
      "/nodes/:id",
      validate("query", z.strictObject({ level: z.enum(["LV", "MV"]).default("LV") })),
      doc({ summary: "One node", answer: node }),
      (c) => c.json({}),
    )
    .post(
      "/nodes",
      requireApp("app:test", { admin: true }),
      validate("json", z.strictObject({ name: z.string().min(3) })),
      doc({ summary: "Creates a node", answer: node, status: 201 }),
      (c) => c.json({}, 201),
    )
    .delete("/nodes/:id", (c) => c.body(null, 204));
}

Deno.test("routeDocs() reads each route's access, inputs and answer from its middleware", () => {
  const routes = routeDocs(app(), "/tst");
  assert.deepEqual(routes.map((r) => `${r.method} ${r.path}`), [
    "get /tst/nodes/{id}",
    "post /tst/nodes",
    "delete /tst/nodes/{id}",
  ]);
  const [get, post, del] = routes;
  assert.deepEqual(get!.access, { key: "app:test", admin: false });
  assert.deepEqual(post!.access, { key: "app:test", admin: true });
  assert.equal(get!.summary, "One node");
  assert.equal(post!.answer?.status, 201);
  assert.ok(post!.json);
  assert.equal(del!.answer, undefined);
  assert.deepEqual(del!.access, { key: "app:test", admin: false });
});

Deno.test("routeDocs() reads the routes of a sub-app mounted in another app", () => {
  const root = new Hono<AppEnv>();
  root.onError((_e, c) => c.text("x"));
  root.route("/tst", app());
  const routes = routeDocs(root);
  assert.equal(
    routes.find((r) => r.path === "/tst/nodes" && r.method === "post")?.summary,
    "Creates a node",
  );
});

Deno.test("openApiDocument() gives OpenAPI 3.1 with named components and parameters", () => {
  const document = openApiDocument({ title: "T", version: "1" }, routeDocs(app(), "/tst"));
  assert.equal(document.openapi, "3.1.0");
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const get = paths["/tst/nodes/{id}"]!.get!;
  assert.deepEqual(get.parameters, [
    { name: "id", in: "path", required: true, schema: { type: "string" } },
    {
      name: "level",
      in: "query",
      required: false,
      schema: { default: "LV", type: "string", enum: ["LV", "MV"] },
    },
  ]);
  assert.equal(get["x-access"], "app:test");
  assert.deepEqual(
    (get.responses as Record<string, { content: Record<string, unknown> }>)["200"]!.content,
    { "application/json": { schema: { $ref: "#/components/schemas/TestNodeDto" } } },
  );
  const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> })
    .schemas;
  assert.deepEqual(Object.keys(schemas), ["ErrorBody", "TestFeederDto", "TestNodeDto"]);
  assert.deepEqual(
    (schemas.TestNodeDto!.properties as Record<string, unknown>).feeders,
    { type: "array", items: { $ref: "#/components/schemas/TestFeederDto" } },
  );
  assert.equal(paths["/tst/nodes"]!.post!["x-access"], "app:test:admin");
  assert.ok(paths["/tst/nodes/{id}"]!.delete!.responses);
});
