import assert from "node:assert/strict";
import plugin, { fileLengthWarning, resolveImport, splitRepoPath } from "./boundaries_plugin.ts";

// Synthetic paths: the rules only look at the file name, never at the disk.
const ROOT = "/repo";

function lint(path: string, source: string): Array<[string, string]> {
  return Deno.lint.runPlugin(plugin, `${ROOT}/${path}`, source)
    .map((diagnostic) => [diagnostic.id, diagnostic.message]);
}

function messages(path: string, source: string, rule: string): string[] {
  return lint(path, source)
    .filter(([id]) => id === `gridwatch/${rule}`)
    .map(([, message]) => message);
}

Deno.test("splitRepoPath() cuts at the leftmost layout marker", () => {
  assert.deepEqual(splitRepoPath("/w/main/modules/grid/core/x.ts"), {
    root: "/w/main",
    path: "modules/grid/core/x.ts",
  });
  assert.deepEqual(splitRepoPath("/w/main/main.ts"), { root: "/w/main", path: "main.ts" });
  assert.equal(splitRepoPath("/w/main/scripts/x.ts"), null);
  assert.equal(splitRepoPath("/w/main/main.tsx"), null);
});

Deno.test("resolveImport() resolves relative and @/ specifiers and ignores bare ones", () => {
  assert.equal(resolveImport("modules/a/x.ts", "../b/mod.ts"), "modules/b/mod.ts");
  assert.equal(resolveImport("web/src/ui/x.tsx", "@/lib/cn.ts"), "web/src/lib/cn.ts");
  assert.equal(resolveImport("modules/a/x.ts", "npm:hono"), null);
  assert.equal(resolveImport("modules/a/x.ts", "node:path"), null);
  assert.equal(resolveImport("main.ts", "../elsewhere.ts"), null);
});

Deno.test("module-boundaries rule reports a deep import of another module", () => {
  assert.deepEqual(
    messages(
      "modules/identity/service.ts",
      `import { findUser } from "../users/service.ts";`,
      "module-boundaries",
    ),
    [
      "Import of modules/users/service.ts from modules/identity: " +
      "import from the public export modules/users/mod.ts instead",
    ],
  );
});

Deno.test("module-boundaries rule reports deep re-exports, dynamic and type imports", () => {
  const source = [
    `export { a } from "../users/a.ts";`,
    `export * from "../../core/ingest.ts";`,
    `const b = await import("../grid/b.ts");`,
    `import type { C } from "../grid/c.ts";`,
    `type D = import("../grid/d.ts").D;`,
  ].join("\n");
  assert.deepEqual(messages("modules/identity/x.ts", source, "module-boundaries"), [
    "Import of modules/users/a.ts from modules/identity: " +
    "import from the public export modules/users/mod.ts instead",
    "Import of core/ingest.ts from modules/identity: " +
    "import from the public export core/mod.ts instead",
    "Import of modules/grid/b.ts from modules/identity: " +
    "import from the public export modules/grid/mod.ts instead",
    "Import of modules/grid/c.ts from modules/identity: " +
    "import from the public export modules/grid/mod.ts instead",
    "Import of modules/grid/d.ts from modules/identity: " +
    "import from the public export modules/grid/mod.ts instead",
  ]);
});

Deno.test("module-boundaries rule allows own files, mod.ts facades, core/mod.ts, npm and node:", () => {
  const source = [
    `import { repo } from "./repository.ts";`,
    `import { AppError } from "../kernel/mod.ts";`,
    `import { findUser } from "../users/mod.ts";`,
    `import { ingest } from "../../core/mod.ts";`,
    `import { Hono } from "hono";`,
    `import { z } from "npm:zod";`,
    `import { join } from "node:path";`,
    `export * from "./events.ts";`,
  ].join("\n");
  assert.deepEqual(lint("modules/identity/service.ts", source), []);
});

Deno.test("module-boundaries rule lets a contract import another module's contract only", () => {
  const source = `import { LEVELS } from "../grid/contract.ts";\n` +
    `import { x } from "../grid/structure/validation.ts";`;
  assert.deepEqual(messages("modules/monitoring/contract.ts", source, "module-boundaries"), [
    "Import of modules/grid/structure/validation.ts from modules/monitoring: " +
    "import from the public export modules/grid/mod.ts instead",
  ]);
  assert.deepEqual(
    messages(
      "modules/monitoring/service.ts",
      `import { LEVELS } from "../grid/contract.ts";`,
      "module-boundaries",
    ),
    [
      "Import of modules/grid/contract.ts from modules/monitoring: " +
      "import from the public export modules/grid/mod.ts instead",
    ],
  );
});

Deno.test("module-boundaries rule reports a kernel import of another module", () => {
  assert.deepEqual(
    messages("kernel/bus.ts", `import { u } from "../modules/users/mod.ts";`, "module-boundaries"),
    ["Import of modules/users/mod.ts from kernel: the shared kernel imports no module and not core/"],
  );
});

Deno.test("module-boundaries rule reports a core import of a module other than kernel", () => {
  const source = `import { g } from "../modules/grid/mod.ts";\n` +
    `import { k } from "../kernel/mod.ts";\nimport { a } from "./aggregates.ts";`;
  assert.deepEqual(messages("core/ingest.ts", source, "module-boundaries"), [
    "Import of modules/grid/mod.ts from core: core may import only kernel/mod.ts",
  ]);
});

Deno.test("module-boundaries rule reports main.ts reaching past a facade or into scripts/", () => {
  const source = [
    `import { grid } from "./modules/grid/mod.ts";`,
    `import { core } from "./core/mod.ts";`,
    `import pkg from "./package.json" with { type: "json" };`,
    `import { routes } from "./modules/grid/routes.ts";`,
    `import { sim } from "./scripts/simulate.ts";`,
  ].join("\n");
  assert.deepEqual(messages("main.ts", source, "module-boundaries"), [
    "Import of modules/grid/routes.ts from main.ts: " +
    "import from the public export modules/grid/mod.ts instead",
    "Import of scripts/simulate.ts from main.ts: " +
    "main.ts may import only kernel/mod.ts, modules/<name>/mod.ts, core/mod.ts and root files",
  ]);
});

Deno.test("module-boundaries rule reports a module importing a file outside the layout", () => {
  assert.deepEqual(
    messages("modules/grid/x.ts", `import { s } from "../../scripts/sim.ts";`, "module-boundaries"),
    [
      "Import of scripts/sim.ts from modules/grid: a module may import only its own files, " +
      "modules/<name>/mod.ts, core/mod.ts, npm and node: specifiers",
    ],
  );
});

Deno.test("module-boundaries rule leaves tests/ and scripts/ free and lets module tests use tests/", () => {
  const deep = `import { s } from "../../modules/grid/service.ts";`;
  assert.deepEqual(lint("tests/integration/grid_test.ts", deep), []);
  assert.deepEqual(
    lint("scripts/simulate.ts", `import { s } from "../modules/grid/service.ts";`),
    [],
  );
  const fixture = `import { db } from "../../tests/fixtures/db.ts";`;
  assert.deepEqual(lint("modules/grid/service_test.ts", fixture), []);
});

Deno.test("web-boundaries rule reports a feature importing another feature", () => {
  const source =
    `import { Map } from "../map/map-view.tsx";\nimport { x } from "@/features/map/x.ts";`;
  assert.deepEqual(messages("web/src/features/alarms/list.tsx", source, "web-boundaries"), [
    "Import of web/src/features/map/map-view.tsx from web/src/features/alarms: " +
    "a feature never imports another feature",
    "Import of web/src/features/map/x.ts from web/src/features/alarms: " +
    "a feature never imports another feature",
  ]);
});

Deno.test("web-boundaries rule reports ui/ and lib/ importing a feature", () => {
  const source = `import { a } from "../features/alarms/state.ts";`;
  assert.deepEqual(messages("web/src/ui/button.tsx", source, "web-boundaries"), [
    "Import of web/src/features/alarms/state.ts from web/src/ui: ui/ imports no feature",
  ]);
  assert.deepEqual(messages("web/src/lib/api.ts", source, "web-boundaries"), [
    "Import of web/src/features/alarms/state.ts from web/src/lib: lib/ imports no feature",
  ]);
});

Deno.test("web-boundaries rule allows own feature, ui, lib and routes importing features", () => {
  const feature = [
    `import { row } from "./row.tsx";`,
    `import { Button } from "../../ui/button.tsx";`,
    `import { cn } from "@/lib/cn.ts";`,
    `import { useQuery } from "@tanstack/react-query";`,
  ].join("\n");
  assert.deepEqual(lint("web/src/features/alarms/list.tsx", feature), []);
  const route = `import { AlarmList } from "../features/alarms/list.tsx";`;
  assert.deepEqual(lint("web/src/routes/alarms.tsx", route), []);
});

Deno.test("web-boundaries rule allows contracts and the pure rule files from outside web/", () => {
  const source = [
    `import type { CustomerDto } from "../../../../modules/customers/contract.ts";`,
    `import type { ErrorBody } from "../../../../kernel/contract.ts";`,
    `import { RANGES } from "../../../../modules/customers/settings_rules.ts";`,
    `const policy = import("../../../../modules/users/password_policy.ts");`,
    `import type { SetupCellDto } from "../../../../modules/grid/cells/contract.ts";`,
  ].join("\n");
  assert.deepEqual(lint("web/src/features/settings/form.tsx", source), []);
});

Deno.test("web-boundaries rule reports server files other than contracts and rule files", () => {
  const source = [
    `import type { UserRow } from "../../../modules/users/schema.ts";`,
    `import { AppError } from "../../../kernel/errors.ts";`,
    `import type { GridStatusDto } from "../../../modules/monitoring/mod.ts";`,
  ].join("\n");
  const tail = ": the web app imports only modules/<name>/contract.ts, kernel/contract.ts " +
    "and the pure rule files";
  assert.deepEqual(messages("web/src/lib/api.ts", source, "web-boundaries"), [
    `Import of modules/users/schema.ts from web/src${tail}`,
    `Import of kernel/errors.ts from web/src${tail}`,
    `Import of modules/monitoring/mod.ts from web/src${tail}`,
  ]);
  const fixture = `import atlas from "../../../node_modules/world-atlas/countries-10m.json";`;
  assert.deepEqual(lint("web/src/map/basemap_test.ts", fixture), [], "tests may read fixtures");
});

Deno.test("fileLengthWarning() warns over 400 lines of a source file, never for tests", () => {
  const lines = (n: number) => "const x = 1;\n".repeat(n);
  assert.equal(fileLengthWarning("modules/grid/service.ts", lines(400)), null);
  assert.equal(
    fileLengthWarning("modules/grid/service.ts", lines(401)),
    "warning[gridwatch/max-file-lines]: modules/grid/service.ts has 401 lines " +
      "(over 400; aim for about 300: split it by sub-area)",
  );
  assert.equal(fileLengthWarning("modules/grid/service_test.ts", lines(900)), null);
});

Deno.test("max-file-lines rule prints its warning and reports nothing, so lint passes", () => {
  const printed: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void printed.push(...args);
  try {
    const long = "const x = 1;\n".repeat(450);
    assert.deepEqual(lint("web/src/features/big/page.tsx", long), []);
    assert.deepEqual(lint("web/src/features/big/page.tsx", "const x = 1;\n"), []);
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(printed, [
    "warning[gridwatch/max-file-lines]: web/src/features/big/page.tsx has 450 lines " +
    "(over 400; aim for about 300: split it by sub-area)",
  ]);
});

Deno.test("no-literal-ui-text rule reports JSX text and text attributes", () => {
  const source = `export const Form = () => (
    <form title="Edit feeder">
      <input placeholder="Name" aria-label={"Feeder name"} />
      <img alt={\`Map\`} src="/map.png" />
      <button>Save</button>
      <p>{"Cancel"}</p>
    </form>
  );`;
  assert.deepEqual(messages("web/src/features/grid/form.tsx", source, "no-literal-ui-text"), [
    `User-visible text "Edit feeder" must come from the i18n files`,
    `User-visible text "Name" must come from the i18n files`,
    `User-visible text "Feeder name" must come from the i18n files`,
    `User-visible text "Map" must come from the i18n files`,
    `User-visible text "Save" must come from the i18n files`,
    `User-visible text "Cancel" must come from the i18n files`,
  ]);
});

Deno.test("no-literal-ui-text rule allows translated text, punctuation, digits and symbols", () => {
  const source = `export const Row = ({ t, n }: { t: (k: string) => string; n: number }) => (
    <p title={t("grid.feeder")} className="flex gap-2" data-testid="row">
      {t("grid.name")} · {n} | 12 — 3.5 % ({n}) :
      <img alt="" src="/icon.svg" />
    </p>
  );`;
  assert.deepEqual(lint("web/src/features/grid/row.tsx", source), []);
});

Deno.test("no-literal-ui-text rule skips web tests and files outside web/src", () => {
  const source = `export const B = () => <button>Save</button>;`;
  assert.deepEqual(lint("web/src/ui/button.test.tsx", source), []);
  assert.deepEqual(lint("modules/notifications/email.tsx", source), []);
});
