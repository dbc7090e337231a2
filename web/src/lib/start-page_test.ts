import assert from "node:assert/strict";
import type { AccessContext } from "./access.ts";
import { isUsableStartPage, resolveStartPage, startPageWorks } from "./start-page.ts";

const ctx = (appsRoles: string[], customerApplications: string[] = []): AccessContext => ({
  appsRoles,
  defaultStartPageKey: "hes:data-export",
  appsOpenToAll: ["user-settings", "app:api-doc"],
  customerApplications,
});

Deno.test("resolveStartPage() prefers the user's stored start page", () => {
  assert.equal(
    resolveStartPage({ stored: "/grid-monitoring", claim: "/data-export", fallback: "/x" }),
    "/grid-monitoring",
  );
});

Deno.test("resolveStartPage() falls back to the start_page claim, then the configured default", () => {
  assert.equal(
    resolveStartPage({ stored: null, claim: "/power-quality", fallback: "/d" }),
    "/power-quality",
  );
  assert.equal(
    resolveStartPage({ stored: "", claim: undefined, fallback: "/data-export" }),
    "/data-export",
  );
});

Deno.test("resolveStartPage() skips values that would loop or leave the site", () => {
  assert.equal(resolveStartPage({ stored: "/", claim: "//evil.example", fallback: "/d" }), "/d");
  assert.equal(
    resolveStartPage({ stored: "https://evil.example", claim: 42, fallback: "/d" }),
    "/d",
  );
});

Deno.test("isUsableStartPage() accepts paths with a query or hash", () => {
  assert.equal(isUsableStartPage("/grid-monitoring?voltage=mv"), true);
  assert.equal(isUsableStartPage("/?a=1"), false);
  assert.equal(isUsableStartPage("/\\evil"), false);
});

Deno.test("resolveStartPage() sends a user without a start page to grid monitoring, a built screen", () => {
  const operator = ctx(["hes:default", "app:grid-monitoring:user", "app:grid-metering:user"]);
  assert.equal(
    resolveStartPage({
      stored: null,
      claim: undefined,
      fallback: "/grid-monitoring",
      ctx: operator,
    }),
    "/grid-monitoring",
  );
});

Deno.test("resolveStartPage() keeps the user's own start page when it opens", () => {
  const user = ctx(["app:grid-metering:user", "app:grid-monitoring:user"]);
  assert.equal(
    resolveStartPage({
      stored: "/metering-information?voltage=lv",
      claim: "/grid-monitoring",
      fallback: "/grid-monitoring",
      ctx: user,
    }),
    "/metering-information?voltage=lv",
  );
  const statistics = ctx(["app:visual-statistics:user"]);
  assert.equal(
    resolveStartPage({ stored: "/visual-statistics/compare", fallback: "/g", ctx: statistics }),
    "/visual-statistics/compare",
  );
});

Deno.test("resolveStartPage() skips a module not built yet and one the user may not open", () => {
  const metering = ctx(["app:grid-metering:user"]);
  assert.equal(
    resolveStartPage({
      stored: "/scada-connector",
      claim: "/power-quality/reports",
      fallback: "/grid-monitoring",
      ctx: metering,
    }),
    "/metering-information",
  );
  assert.equal(
    resolveStartPage({ stored: null, fallback: "/grid-monitoring", ctx: ctx(["hes:default"]) }),
    "/user-settings",
  );
});

Deno.test("startPageWorks() refuses admin pages of non-admins", () => {
  const admin = ctx(["hes:scada-connector:admin", "hes:um:user"]);
  assert.equal(startPageWorks("/scada-connector", admin), true);
  assert.equal(startPageWorks("/user-management", admin), false);
  assert.equal(startPageWorks("/user-settings#notification-settings", admin), true);
  assert.equal(startPageWorks("/some-custom-page", admin), true);
});
