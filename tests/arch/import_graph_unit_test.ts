// Unit tests of the graph builder on synthetic, in-memory file sets (never the real repository).
import assert from "node:assert/strict";
import {
  buildImportGraph,
  deepImports,
  findCycles,
  importSpecifiers,
  layeringViolations,
  sharedFileViolations,
  type SourceFile,
  webImportViolations,
} from "./import_graph.ts";

function files(entries: Record<string, string>): SourceFile[] {
  return Object.entries(entries).map(([path, text]) => ({ path, text }));
}

Deno.test("importSpecifiers() finds static, type, side-effect, re-export and dynamic imports", () => {
  const text = `
    import { a } from "./a.ts";
    import type { B } from './b.ts';
    import C, {
      d as e,
    } from "./c.ts";
    import "./side.ts";
    export * from "./all.ts";
    export { f } from "./f.ts";
    export type { G } from "./g.ts";
    const h = await import("./h.ts");
    type I = import("./i.ts").I;
  `;
  assert.deepEqual(importSpecifiers(text), [
    "./a.ts",
    "./b.ts",
    "./c.ts",
    "./side.ts",
    "./all.ts",
    "./f.ts",
    "./g.ts",
    "./h.ts",
    "./i.ts",
  ]);
});

Deno.test("importSpecifiers() ignores comments, strings, templates, regexes and import.meta", () => {
  const text = `
    // import { x } from "./line_comment.ts";
    /* export * from "./block_comment.ts"; */
    const s = 'import { y } from "./in_string.ts"';
    const t = \`import("./in_template.ts") \${ "\`" }\`;
    const r = /import "['"]/g;
    const u = import.meta.url;
    export const from = "./not_an_import.ts";
    export function load() { return loader.import("./method.ts"); }
    import { real } from "./real.ts";
  `;
  assert.deepEqual(importSpecifiers(text), ["./real.ts"]);
});

Deno.test("findCycles() reports a cycle between modules with its file edges", () => {
  const graph = buildImportGraph(files({
    "modules/a/service.ts": `import { b } from "../b/mod.ts";`,
    "modules/b/service.ts": `import { c } from "../c/mod.ts";`,
    "modules/c/mod.ts": `export { a } from "../a/mod.ts";`,
    "modules/a/mod.ts": `export * from "./service.ts";`,
    "modules/b/mod.ts": `export * from "./service.ts";`,
  }));
  assert.deepEqual(findCycles(graph), [
    "modules/a -> modules/b -> modules/c -> modules/a: " +
    'modules/a/service.ts -> modules/b/mod.ts ("../b/mod.ts"); ' +
    'modules/b/service.ts -> modules/c/mod.ts ("../c/mod.ts"); ' +
    'modules/c/mod.ts -> modules/a/mod.ts ("../a/mod.ts")',
  ]);
});

Deno.test("findCycles() passes an acyclic graph and ignores edges from test files", () => {
  const graph = buildImportGraph(files({
    "main.ts": `import { a } from "./modules/a/mod.ts";\nimport { core } from "./core/mod.ts";`,
    "modules/a/mod.ts":
      `import { k } from "../../kernel/mod.ts";\nimport { c } from "../../core/mod.ts";`,
    "core/mod.ts": `import { k } from "../kernel/mod.ts";`,
    "kernel/mod.ts": `import { z } from "npm:zod";\nimport { join } from "node:path";`,
    "kernel/bus_test.ts": `import { a } from "../modules/a/mod.ts";`,
  }));
  assert.deepEqual(findCycles(graph), []);
});

Deno.test("layeringViolations() reports kernel and core importing other modules", () => {
  const graph = buildImportGraph(files({
    "kernel/auth.ts":
      `import { users } from "../modules/users/mod.ts";\nimport { db } from "./db.ts";`,
    "core/ingest.ts": `import { g } from "../modules/grid/mod.ts";\n` +
      `import { k } from "../kernel/mod.ts";\nimport { a } from "./aggregates.ts";`,
  }));
  assert.deepEqual(layeringViolations(graph), [
    'kernel/auth.ts -> modules/users/mod.ts ("../modules/users/mod.ts")',
    'core/ingest.ts -> modules/grid/mod.ts ("../modules/grid/mod.ts")',
  ]);
});

Deno.test("deepImports() reports files reaching past another module's mod.ts", () => {
  const graph = buildImportGraph(files({
    "main.ts": `import { routes } from "./modules/grid/routes.ts";`,
    "modules/identity/login_test.ts": `import { s } from "../users/service.ts";`,
    "modules/grid/service_test.ts": `import { s } from "./service.ts";`,
    "modules/grid/mod.ts": `import { i } from "../../core/ingest.ts";`,
    "tests/integration/grid_test.ts": `import { s } from "../../modules/grid/service.ts";`,
    "modules/monitoring/contract.ts": `import { LEVELS } from "../grid/contract.ts";`,
  }));
  assert.deepEqual(deepImports(graph), [
    'main.ts -> modules/grid/routes.ts ("./modules/grid/routes.ts")',
    'modules/identity/login_test.ts -> modules/users/service.ts ("../users/service.ts")',
    'modules/grid/mod.ts -> core/ingest.ts ("../../core/ingest.ts")',
  ]);
});

Deno.test("webImportViolations() names web imports of server files other than contracts", () => {
  const found = webImportViolations(files({
    "web/src/lib/api.ts": `import type { ErrorBody } from "../../../kernel/contract.ts";
      import { AppError } from "../../../kernel/errors.ts";`,
    "web/src/features/a/page.tsx": `import type { X } from "../../../../modules/a/contract.ts";
      import { y } from "../../../../modules/a/service.ts";
      import { Button } from "../../ui/button.tsx";`,
  }));
  assert.deepEqual(found, [
    'web/src/lib/api.ts -> kernel/errors.ts ("../../../kernel/errors.ts")',
    'web/src/features/a/page.tsx -> modules/a/service.ts ("../../../../modules/a/service.ts")',
  ]);
});

Deno.test("sharedFileViolations() keeps contracts and rule files free of server code", () => {
  const found = sharedFileViolations(files({
    "modules/a/contract.ts": `import { z } from "zod";
      import { RULE } from "./settings_rules.ts";
      import { AppError } from "../../kernel/mod.ts";`,
    "modules/customers/settings_rules.ts": `import { z } from "zod";
      import { isValidPhoneNumber } from "libphonenumber-js";
      import { db } from "./schema.ts";`,
    "kernel/contract.ts": `import { Hono } from "hono";`,
    "modules/a/service.ts": `import { Hono } from "hono";`,
    "modules/b/contract.ts": `import { LEVELS } from "../a/contract.ts";`,
  }));
  assert.deepEqual(found, [
    'modules/a/contract.ts imports "./settings_rules.ts"',
    'modules/a/contract.ts imports "../../kernel/mod.ts"',
    'modules/customers/settings_rules.ts imports "./schema.ts"',
    'kernel/contract.ts imports "hono"',
  ]);
});
