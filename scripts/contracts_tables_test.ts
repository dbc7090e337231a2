import assert from "node:assert/strict";
import { z } from "zod";
import { doc, openApiDocument, validate } from "../kernel/mod.ts";
import { routeDocs } from "../kernel/mod.ts";
import { renderTables, tsType } from "./contracts_tables.ts";
import { Hono } from "hono";

Deno.test("tsType() writes JSON Schemas as TypeScript: unions, nulls, arrays, records, refs", () => {
  assert.equal(tsType({ type: ["string", "null"] }), "string | null");
  assert.equal(tsType({ type: "array", items: { type: ["number", "null"] } }), "(number | null)[]");
  assert.equal(tsType({ enum: ["LV", "MV"] }), '"LV" | "MV"');
  assert.equal(tsType({ $ref: "#/components/schemas/NodeDto" }), "NodeDto");
  assert.equal(
    tsType({
      type: "object",
      propertyNames: { enum: ["OK", "NO_DATA"] },
      additionalProperties: { type: "number" },
    }),
    'Record<"OK" | "NO_DATA", number>',
  );
  assert.equal(
    tsType({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "boolean" } },
      required: ["a"],
    }),
    "{ a: number; b?: boolean }",
  );
  assert.equal(tsType({}), "unknown");
});

Deno.test("tsType() breaks a long object over lines, indented", () => {
  const properties = Object.fromEntries(
    ["first_field", "second_field", "third_field", "fourth_field"].map((
      k,
    ) => [k, { type: "string" }]),
  );
  assert.equal(
    tsType({ type: "object", properties, required: Object.keys(properties) }),
    "{\n  first_field: string;\n  second_field: string;\n  third_field: string;\n  fourth_field: string;\n}",
  );
});

Deno.test("renderTables() lists each call with its access, input and answer, and the types", () => {
  const dto = z.object({ id: z.string(), level: z.enum(["LV", "MV"]) }).meta({
    id: "TableTestDto",
  });
  const app = new Hono()
    .get(
      "/things",
      validate("query", z.object({ level: z.enum(["LV", "MV"]).optional() })),
      doc({ summary: "All things", answer: z.array(dto) }),
      (c) => c.json([]),
    )
    .delete("/things/:id", doc({ summary: "Deletes a thing", status: 204 }), (c) => c.body(null));
  const text = renderTables(openApiDocument({ title: "t", version: "1" }, routeDocs(app, "/tst")));
  assert.ok(text.includes("### `/tst`"));
  assert.ok(
    text.includes(
      "| `GET /tst/things?[level=LV \\| MV]` | public |  | 200 `TableTestDto[]` | All things |",
    ),
    text,
  );
  assert.ok(text.includes("| `DELETE /tst/things/{id}` | public |  | 204 | Deletes a thing |"));
  assert.ok(text.includes('type TableTestDto = { id: string; level: "LV" | "MV" };'));
});
