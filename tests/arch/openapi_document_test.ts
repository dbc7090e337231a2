/** The committed internal OpenAPI document is well formed: 3.1, every reference resolves. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const document = JSON.parse(
  await readFile(new URL("../../docs/openapi/internal.json", import.meta.url), "utf8"),
) as {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") out.push(child);
      else refs(child, out);
    }
  }
  return out;
}

Deno.test("docs/openapi/internal.json: every $ref names a component schema", () => {
  assert.equal(document.openapi, "3.1.0");
  const found = refs(document);
  assert.ok(found.length > 50, `references were found (${found.length})`);
  const missing = found.filter((ref) =>
    !ref.startsWith("#/components/schemas/") ||
    !(ref.slice("#/components/schemas/".length) in document.components.schemas)
  );
  assert.deepEqual([...new Set(missing)], []);
});

Deno.test("docs/openapi/internal.json: every operation has a success and an error answer", () => {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ call: `${method} ${path}`, op }))
  );
  assert.ok(operations.length > 50);
  const incomplete = operations.filter(({ op }) => {
    const statuses = Object.keys(op.responses);
    return !statuses.includes("default") || !statuses.some((s) => /^[123]\d\d$/.test(s));
  }).map(({ call }) => call);
  assert.deepEqual(incomplete, []);
});
