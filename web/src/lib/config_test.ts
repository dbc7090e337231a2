import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "./config.ts";

const sample = {
  appName: "GridWatch",
  version: "0.1.0",
  vendorUrl: "https://example.org",
  oidc: { authority: "http://localhost:8080/oidc", clientId: "gridwatch-web", scope: "openid" },
  defaultStartPage: "/data-export",
  defaultStartPageKey: "hes:data-export",
  appsOpenToAll: ["user-settings", "app:api-doc"],
  helpBaseUrl: "/help/",
};

Deno.test("parseConfig() reads the contract's fields and trims trailing slashes", () => {
  const config = parseConfig(sample);
  assert.equal(config.oidc.clientId, "gridwatch-web");
  assert.equal(config.helpBaseUrl, "/help");
  assert.equal(config.apiBaseUrl, "");
  assert.deepEqual(config.appsOpenToAll, ["user-settings", "app:api-doc"]);
});

Deno.test("parseConfig() fails with the missing field's name when oidc is incomplete", () => {
  assert.throws(
    () => parseConfig({ ...sample, oidc: { authority: "x" } }),
    (e: unknown) => e instanceof ConfigError && e.message.includes("clientId"),
  );
  assert.throws(() => parseConfig(null), ConfigError);
});
