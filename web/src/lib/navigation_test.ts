import assert from "node:assert/strict";
import type { AccessContext } from "./access.ts";
import { buildMegaMenu, globalSettingsEntry } from "./navigation.ts";

const ctx = (appsRoles: string[], customerApplications: string[] = []): AccessContext => ({
  appsRoles,
  defaultStartPageKey: "hes:data-export",
  appsOpenToAll: ["user-settings", "app:api-doc"],
  customerApplications,
});

Deno.test("globalSettingsEntry() leads hes:cm admins to /global-settings", () => {
  const e = globalSettingsEntry(ctx(["hes:cm:admin", "app:grid-monitoring:admin"]));
  assert.deepEqual([e.path, e.denial], ["/global-settings", null]);
});

Deno.test("globalSettingsEntry() leads grid monitoring admins to /grid-monitoring-settings", () => {
  const e = globalSettingsEntry(ctx(["app:grid-monitoring:admin", "hes:api-clients:admin"]));
  assert.deepEqual([e.path, e.denial, e.id], [
    "/grid-monitoring-settings",
    null,
    "global-settings",
  ]);
});

Deno.test("globalSettingsEntry() leads API clients admins to /api-settings", () => {
  const e = globalSettingsEntry(ctx(["hes:api-clients:admin", "app:grid-monitoring:user"]));
  assert.deepEqual([e.path, e.denial], ["/api-settings", null]);
});

Deno.test("globalSettingsEntry() is greyed out for users who administer none of them", () => {
  assert.equal(globalSettingsEntry(ctx(["hes:cm:user"])).denial, "admin-only");
  assert.equal(globalSettingsEntry(ctx([])).denial, "no-role");
});

Deno.test("buildMegaMenu() greys out modules without a role and keeps open ones enabled", () => {
  const menu = buildMegaMenu(ctx(["app:grid-monitoring:user"]));
  const denial = (id: string) => menu.modules.find((m) => m.id === id)?.denial;
  assert.equal(denial("grid-monitoring"), null);
  assert.equal(denial("visual-statistics"), "no-role");
  assert.equal(denial("metering-information"), "no-role");
});

Deno.test("buildMegaMenu() greys out the modules not built yet, even for an admin of all", () => {
  const all = [
    "hes:data-export:admin",
    "hes:scada-connector:admin",
    "hes:api-clients:admin",
    "app:power-quality:admin",
    "app:api-doc:admin",
    "app:grid-monitoring:admin",
    "hes:infrastructure-setup:admin",
  ];
  const menu = buildMegaMenu(ctx(all));
  const entries = [...menu.toolset, menu.dataExport, ...menu.modules];
  const greyed = entries.filter((e) => e.denial === "not-built").map((e) => e.id).sort();
  assert.deepEqual(greyed, []);
  const denial = (id: string) => entries.find((e) => e.id === id)?.denial;
  assert.equal(denial("grid-monitoring"), null);
  assert.equal(denial("infrastructure-setup"), null);
  assert.equal(denial("power-quality"), null);
  // An API clients admin's Settings icon leads to /api-settings, which is built.
  assert.equal(globalSettingsEntry(ctx(["hes:api-clients:admin"])).denial, null);
  assert.equal(denial("api-doc"), null);
});

Deno.test("buildMegaMenu() lists IO Monitoring only when the customer's applications include it", () => {
  const ids = (apps: string[]) => buildMegaMenu(ctx([], apps)).modules.map((m) => m.id);
  assert.equal(ids([]).includes("io-monitoring"), false);
  assert.equal(ids(["app:io-monitoring"]).includes("io-monitoring"), true);
});

Deno.test("buildMegaMenu() marks voltage pages so links carry the voltage", () => {
  const menu = buildMegaMenu(ctx([]));
  assert.equal(menu.modules.find((m) => m.id === "grid-monitoring")?.carriesVoltage, true);
  assert.equal(menu.modules.find((m) => m.id === "power-quality")?.carriesVoltage, false);
});

Deno.test("globalSettingsEntry() leads a hes:cm user who administers grid monitoring to its settings", () => {
  const e = globalSettingsEntry(ctx(["hes:cm:user", "app:grid-monitoring:admin"]));
  assert.deepEqual([e.path, e.denial], ["/grid-monitoring-settings", null]);
});
