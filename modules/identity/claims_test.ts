import assert from "node:assert/strict";
import type { CustomerDto } from "../customers/mod.ts";
import type { LoginUser } from "../users/mod.ts";
import { accessTokenClaims, emailDomainAuthorized, profileClaims, subjectOf } from "./claims.ts";
import { issuedAtMs } from "../../kernel/mod.ts";

function customer(overrides: Partial<CustomerDto> = {}): CustomerDto {
  return {
    key: "c-1",
    auth_connection_name: "demo-ew",
    name: "Demo EW",
    default_language: "de",
    available_languages: ["de", "fr", "en"],
    default_map_zoom_level: 12,
    default_lv_nominal_voltage: "230/400",
    default_mv_nominal_voltage: 16000,
    default_frequency: 50,
    default_timezone: "Europe/Zurich",
    default_date_format: "DD.MM.YYYY",
    default_time_format: "HH:mm",
    default_number_format: "1'234.56",
    country: "CH",
    map_center: { lat: 46.8, lng: 8.2 },
    applications: ["app:grid-monitoring"],
    authorized_email_domains: ["demo-ew.ch"],
    logo_etag: null,
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
    ...overrides,
  };
}

function user(overrides: Partial<LoginUser> = {}): LoginUser {
  return {
    user_id: "3f0c-11",
    name: "Anna Admin",
    email: "admin@demo-ew.ch",
    phone: null,
    role: "admin",
    start_page: "/infrastructure-setup",
    language: "fr",
    apps_roles: ["hes:default", "hes:um:admin", "app:grid-monitoring:user"],
    customer_key: "c-1",
    user_metadata: { language: "fr", email_validated: true, notification: { apps: {} } },
    app_metadata: {},
    latest_login: null,
    email_validated: true,
    kiosk: false,
    password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    disabled: false,
    ...overrides,
  };
}

Deno.test("profileClaims() gives the spec 2.9 claims of docs/contracts.md", () => {
  assert.deepEqual(profileClaims(user(), customer()), {
    sub: "gridwatch|3f0c-11",
    name: "Anna Admin",
    email: "admin@demo-ew.ch",
    email_verified: true,
    language: "fr",
    start_page: "/infrastructure-setup",
    apps_roles: ["hes:default", "hes:um:admin", "app:grid-monitoring:user"],
    roles: ["admin"],
    app_metadata: { documentation: { key: "demo-ew" }, customer: "demo-ew" },
    user_metadata: { language: "fr", email_validated: true, notification: { apps: {} } },
  });
});

Deno.test("profileClaims() never puts the password hash or the disabled flag into a token", () => {
  const text = JSON.stringify(profileClaims(user(), customer()));
  assert.doesNotMatch(text, /argon2|password|disabled/);
});

Deno.test("profileClaims() keeps a user's documentation key and forces the real customer", () => {
  const claims = profileClaims(
    user({ app_metadata: { documentation: { key: "demo" }, customer: "other-utility" } }),
    customer(),
  );
  assert.deepEqual(claims.app_metadata, { documentation: { key: "demo" }, customer: "demo-ew" });
});

Deno.test("profileClaims() marks the e-mail verified only when user_metadata says true", () => {
  for (const value of [undefined, false, "true", 1]) {
    const claims = profileClaims(user({ user_metadata: { email_validated: value } }), customer());
    assert.equal(claims.email_verified, false, String(value));
  }
});

Deno.test("subjectOf() prefixes the user id with the provider name", () => {
  assert.equal(subjectOf("3f0c-11"), "gridwatch|3f0c-11");
});

Deno.test("emailDomainAuthorized() compares the domain case-insensitively", () => {
  assert.equal(emailDomainAuthorized("Anna@Demo-EW.CH", ["demo-ew.ch"]), true);
  assert.equal(emailDomainAuthorized("anna@demo-ew.ch", [" DEMO-EW.ch "]), true);
  assert.equal(emailDomainAuthorized("anna@netz.ch", ["demo-ew.ch", "netz.ch"]), true);
});

Deno.test("emailDomainAuthorized() allows every domain when the customer lists none", () => {
  assert.equal(emailDomainAuthorized("anyone@anywhere.example", []), true);
});

Deno.test("emailDomainAuthorized() refuses look-alike and foreign domains", () => {
  const domains = ["demo-ew.ch"];
  assert.equal(emailDomainAuthorized("evil@demo-ew.ch.attacker.com", domains), false);
  assert.equal(emailDomainAuthorized("evil@attacker-demo-ew.ch", domains), false);
  assert.equal(emailDomainAuthorized("evil@attacker.com", domains), false);
  assert.equal(emailDomainAuthorized("demo-ew.ch@attacker.com", domains), false);
});

Deno.test("an access token's iat_ms is the time it was issued, however long the account lookup takes", async () => {
  // A token issued 1,900 ms before the next second, whose account lookup ends after it.
  let clock = 1_700_000_000_100;
  const claims = await accessTokenClaims(undefined, () => {
    clock += 1_500;
    return Promise.resolve({ sub: "gridwatch|u-1", name: "Nina" });
  }, () => clock);
  assert.ok(claims);
  assert.equal(claims.sub, undefined, "the subject is the provider's own claim");
  assert.equal(claims.name, "Nina");
  // The provider stamps the token with the second it was made in.
  const iat = Math.floor(1_700_000_000_100 / 1000);
  assert.equal(issuedAtMs(iat, claims.iat_ms), 1_700_000_000_100);
  // A revocation 50 ms before the issue does not reach it.
  assert.ok(issuedAtMs(iat, claims.iat_ms) > 1_700_000_000_050);
});

Deno.test("an access token with the provider's iat keeps iat_ms inside that second", async () => {
  const claims = await accessTokenClaims(
    1_700_000_000,
    () => Promise.resolve({}),
    () => 1_700_000_003_250,
  );
  assert.equal(claims?.iat_ms, 1_700_000_000_999);
  assert.equal(await accessTokenClaims(1, () => Promise.resolve(undefined)), undefined);
});
