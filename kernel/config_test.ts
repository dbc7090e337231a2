import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

/** Asserts that `env` is refused with a one-line operator message starting with `prefix`. */
function assertRefused(env: Record<string, string>, prefix: string): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected ConfigError for ${JSON.stringify(env)}`);
  assert.equal(caught.name, "ConfigError");
  assert.ok(caught.message.startsWith(prefix), caught.message);
  assert.doesNotMatch(caught.message, /[\r\n]/);
  return caught;
}

Deno.test("loadConfig() gives the documented defaults for an empty environment", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.host, "0.0.0.0");
  assert.equal(config.dataDir, "./data");
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.publicUrl, "http://localhost:8080");
  assert.equal(config.logLevel, "info");
  assert.equal(config.demoSeed, true);
  assert.equal(config.externalOidc, undefined);
});

Deno.test("loadConfig() derives publicUrl from PORT and strips a trailing slash of PUBLIC_URL", () => {
  assert.equal(loadConfig({ PORT: "9000" }).publicUrl, "http://localhost:9000");
  assert.equal(loadConfig({ PORT: "9000" }).port, 9000);
  assert.equal(
    loadConfig({ PUBLIC_URL: "https://grid.demo-ew.ch/" }).publicUrl,
    "https://grid.demo-ew.ch",
  );
});

Deno.test("loadConfig() refuses an out-of-range or non-numeric PORT on one line", () => {
  for (const port of ["70000", "0", "abc", "80.5"]) {
    assertRefused({ PORT: port }, "Invalid configuration: PORT");
  }
});

Deno.test("loadConfig() names every invalid variable on the same line", () => {
  const error = assertRefused({ PORT: "abc", LOG_LEVEL: "loud" }, "Invalid configuration: ");
  assert.match(error.message, /PORT/);
  assert.match(error.message, /LOG_LEVEL/);
});

Deno.test("loadConfig() refuses a DATABASE_URL that is not PostgreSQL without echoing it", () => {
  const error = assertRefused(
    { DATABASE_URL: "mysql://root:s3cret@db/grid" },
    "Invalid configuration: DATABASE_URL",
  );
  assert.doesNotMatch(error.message, /s3cret/);
  assertRefused({ DATABASE_URL: "mysql://x" }, "Invalid configuration: DATABASE_URL");
});

Deno.test("loadConfig() accepts postgres:// and postgresql:// URLs", () => {
  for (const url of ["postgres://grid@db:5432/grid", "postgresql://grid@db/grid"]) {
    assert.equal(loadConfig({ DATABASE_URL: url }).databaseUrl, url);
  }
});

Deno.test("loadConfig() refuses a partial external OIDC configuration", () => {
  const full = {
    OIDC_ISSUER: "https://keycloak.demo-ew.ch/realms/grid",
    OIDC_CLIENT_ID: "gridwatch-web",
    OIDC_AUDIENCE: "urn:gridwatch:api",
  };
  for (const missing of Object.keys(full)) {
    const partial = Object.fromEntries(Object.entries(full).filter(([k]) => k !== missing));
    const error = assertRefused(partial, "Invalid configuration: ");
    assert.match(error.message, /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE/);
  }
  assert.deepEqual(loadConfig(full).externalOidc, {
    issuer: full.OIDC_ISSUER,
    clientId: full.OIDC_CLIENT_ID,
    audience: full.OIDC_AUDIENCE,
  });
});

Deno.test("loadConfig() treats empty strings as unset", () => {
  const config = loadConfig({
    PORT: "",
    HOST: "",
    DATA_DIR: "",
    DATABASE_URL: "",
    PUBLIC_URL: "",
    LOG_LEVEL: "",
    DEMO_SEED: "",
    OIDC_ISSUER: "",
    OIDC_CLIENT_ID: "",
    OIDC_AUDIENCE: "",
  });
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, "./data");
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.publicUrl, "http://localhost:8080");
  assert.equal(config.logLevel, "info");
  assert.equal(config.demoSeed, true);
  assert.equal(config.externalOidc, undefined);
  // An empty OIDC_* next to real values still counts as missing.
  assertRefused(
    {
      OIDC_ISSUER: "https://keycloak.demo-ew.ch/realms/grid",
      OIDC_CLIENT_ID: "",
      OIDC_AUDIENCE: "x",
    },
    "Invalid configuration: OIDC_ISSUER",
  );
});

Deno.test("loadConfig() reads DEMO_SEED as a yes/no flag and refuses other words", () => {
  const cases: [string, boolean][] = [["false", false], ["0", false], ["no", false], ["yes", true]];
  for (const [value, expected] of cases) {
    assert.equal(loadConfig({ DEMO_SEED: value }).demoSeed, expected, value);
  }
  assertRefused({ DEMO_SEED: "maybe" }, "Invalid configuration: DEMO_SEED");
});

Deno.test("loadConfig() takes VENDOR_URL for the footer's vendor link; unset keeps the about page", () => {
  assert.equal(loadConfig({}).vendorUrl, undefined);
  assert.equal(
    loadConfig({ VENDOR_URL: "https://utility.example/contact" }).vendorUrl,
    "https://utility.example/contact",
  );
  assert.throws(() => loadConfig({ VENDOR_URL: "javascript:alert(1)" }), /VENDOR_URL/);
});

Deno.test("loadConfig() trusts X-Forwarded-For only with TRUST_PROXY=true", () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: "true" }).trustProxy, true);
  assertRefused({ TRUST_PROXY: "maybe" }, "Invalid configuration: TRUST_PROXY");
});
