import assert from "node:assert/strict";
import { Hono } from "hono";
import {
  base64url,
  createLocalJWKSet,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWTHeaderParameters,
  type JWTPayload,
  SignJWT,
} from "jose";
import {
  checkedVerifier,
  createJwtVerifier,
  holdsKey,
  isAppAdmin,
  issuedAtMs,
  type Principal,
  requireApp,
  requireAuth,
  type TokenVerifier,
  userIdFromSub,
} from "./auth.ts";
import { AppError } from "./errors.ts";
import { type AppEnv, createHttpApp } from "./http.ts";
import { createLogger } from "./logger.ts";

const ISSUER = "http://localhost:8080/oidc";
const AUDIENCE = "urn:gridwatch:api";
const KID = "install-key-1";

const trusted = await generateKeyPair("RS256");
const stranger = await generateKeyPair("RS256");
const jwks = createLocalJWKSet({
  keys: [{ ...(await exportJWK(trusted.publicKey)), kid: KID, alg: "RS256", use: "sig" }],
});
const verifier = createJwtVerifier({ keys: jwks, issuer: ISSUER, audience: AUDIENCE });

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims the embedded provider puts into an access token (docs/contracts.md, "Tokens"). */
function profile(overrides: JWTPayload = {}): JWTPayload {
  return {
    roles: ["admin"],
    app_metadata: { documentation: { key: "demo" }, customer: "demo-ew" },
    apps_roles: ["hes:default", "app:grid-monitoring:user"],
    language: "de",
    ...overrides,
  };
}

interface TokenOptions {
  payload?: JWTPayload;
  header?: Partial<JWTHeaderParameters>;
  key?: CryptoKey | Uint8Array;
  issuer?: string;
  audience?: string;
  expiresAt?: number | null;
  notBefore?: number;
}

/** Signs an access token; every option defaults to what the real provider issues. */
async function accessToken(opts: TokenOptions = {}): Promise<string> {
  const now = nowSeconds();
  const jwt = new SignJWT(opts.payload ?? profile())
    .setProtectedHeader({ alg: "RS256", kid: KID, typ: "at+jwt", ...opts.header })
    .setIssuer(opts.issuer ?? ISSUER)
    .setAudience(opts.audience ?? AUDIENCE)
    .setSubject("gridwatch|u-42")
    .setIssuedAt(now - 60);
  if (opts.expiresAt !== null) jwt.setExpirationTime(opts.expiresAt ?? now + 300);
  if (opts.notBefore !== undefined) jwt.setNotBefore(opts.notBefore);
  return await jwt.sign(opts.key ?? trusted.privateKey);
}

function encodeJson(value: unknown): string {
  return base64url.encode(JSON.stringify(value));
}

/** Asserts that the verifier answers 401 `common.unauthorized` with the given reason. */
async function assertRefused(token: string, reason: string, with_ = verifier): Promise<void> {
  await assert.rejects(with_.verify(token), (error: unknown) => {
    assert.ok(error instanceof AppError, `expected AppError, got ${error}`);
    assert.equal(error.status, 401);
    assert.deepEqual(error.toBody(), { key: "common.unauthorized", params: { reason } });
    return true;
  });
}

Deno.test("createJwtVerifier() accepts a token of the trusted key and strips the sub prefix", async () => {
  const token = await accessToken();
  const principal = await verifier.verify(token);
  const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
  assert.deepEqual(
    principal,
    {
      sub: "gridwatch|u-42",
      userId: "u-42",
      customer: "demo-ew",
      role: "admin",
      appsRoles: ["hes:default", "app:grid-monitoring:user"],
      language: "de",
      issuedAt: claims.iat * 1000,
    } satisfies Principal,
  );
});

Deno.test("createJwtVerifier() refuses an unsigned token (alg none)", async () => {
  const now = nowSeconds();
  const payload = {
    ...profile({ roles: ["super-admin"] }),
    sub: "gridwatch|u-42",
    iss: ISSUER,
    aud: AUDIENCE,
    iat: now,
    exp: now + 300,
  };
  for (const header of [{ alg: "none", typ: "at+jwt" }, { alg: "none", typ: "at+jwt", kid: KID }]) {
    await assertRefused(`${encodeJson(header)}.${encodeJson(payload)}.`, "invalid");
  }
});

Deno.test("createJwtVerifier() refuses HS256 signed with the public key bytes (HS/RS confusion)", async () => {
  const publicPem = new TextEncoder().encode(await exportSPKI(trusted.publicKey));
  const publicJwk = new TextEncoder().encode(JSON.stringify(await exportJWK(trusted.publicKey)));
  for (const secret of [publicPem, publicJwk]) {
    const forged = await accessToken({ header: { alg: "HS256" }, key: secret });
    await assertRefused(forged, "invalid");
    // Even a naive key resolver that hands out the public key bytes must not make HS256 pass.
    const naive = createJwtVerifier({ keys: () => secret, issuer: ISSUER, audience: AUDIENCE });
    await assertRefused(forged, "invalid", naive);
  }
});

Deno.test("createJwtVerifier() refuses a token signed by an unknown key, with or without the trusted kid", async () => {
  await assertRefused(
    await accessToken({ key: stranger.privateKey, header: { kid: "attacker" } }),
    "invalid",
  );
  await assertRefused(await accessToken({ key: stranger.privateKey }), "invalid");
});

Deno.test("createJwtVerifier() refuses a token expired by 1 s as expired", async () => {
  await assertRefused(await accessToken({ expiresAt: nowSeconds() - 1 }), "expired");
});

Deno.test("createJwtVerifier() refuses a token without exp", async () => {
  await assertRefused(await accessToken({ expiresAt: null }), "invalid");
});

Deno.test("createJwtVerifier() refuses a token whose nbf lies in the future", async () => {
  await assertRefused(await accessToken({ notBefore: nowSeconds() + 60 }), "invalid");
});

Deno.test("createJwtVerifier() refuses a token of another issuer", async () => {
  await assertRefused(await accessToken({ issuer: "https://evil.example/oidc" }), "invalid");
});

Deno.test("createJwtVerifier() refuses a token for another audience", async () => {
  await assertRefused(await accessToken({ audience: "gridwatch-web" }), "invalid");
});

Deno.test("createJwtVerifier() refuses an ID token (typ JWT) used as access token", async () => {
  await assertRefused(await accessToken({ header: { typ: "JWT" } }), "type");
  await assertRefused(await accessToken({ header: { typ: undefined } }), "type");
});

Deno.test("createJwtVerifier() accepts the media-type spelling application/at+jwt (RFC 9068)", async () => {
  const principal = await verifier.verify(
    await accessToken({ header: { typ: "application/at+jwt" } }),
  );
  assert.equal(principal.userId, "u-42");
});

Deno.test("createJwtVerifier() refuses a token with one flipped signature byte", async () => {
  const [header, payload, signature] = (await accessToken()).split(".");
  const bytes = base64url.decode(signature ?? "");
  bytes[10] = (bytes[10] ?? 0) ^ 0x01;
  await assertRefused(`${header}.${payload}.${base64url.encode(bytes)}`, "invalid");
});

Deno.test("createJwtVerifier() refuses a correctly signed token larger than 8 KB by size", async () => {
  const padding = "x".repeat(8 * 1024);
  const token = await accessToken({ payload: profile({ padding }) });
  assert.ok(token.length > 8192);
  await assertRefused(token, "size");
});

Deno.test("createJwtVerifier() refuses a signed token missing roles, customer or apps_roles", async () => {
  const base = profile();
  const variants: JWTPayload[] = [
    { ...base, roles: undefined },
    { ...base, roles: ["root"] },
    { ...base, app_metadata: { documentation: { key: "demo" } } },
    { ...base, app_metadata: undefined },
    { ...base, apps_roles: undefined },
    { ...base, apps_roles: ["app:grid-monitoring:user", 7] },
  ];
  for (const payload of variants) {
    await assertRefused(await accessToken({ payload }), "claims");
  }
});

Deno.test("checkedVerifier() hands the verified principal to the access check and returns its answer", async () => {
  const seen: Principal[] = [];
  const checked = checkedVerifier(verifier, {
    apply(principal) {
      seen.push(principal);
      if (principal.userId === "u-42" && (principal.issuedAt ?? 0) < Date.now()) {
        return { ...principal, role: "user", appsRoles: [] };
      }
      return principal;
    },
  });
  const principal = await checked.verify(await accessToken());
  assert.equal(seen.length, 1);
  assert.equal(principal.role, "user");
  assert.deepEqual(principal.appsRoles, []);
});

Deno.test("checkedVerifier() lets a revocation's 401 through and never calls the check for a bad token", async () => {
  let calls = 0;
  const checked = checkedVerifier(verifier, {
    apply() {
      calls++;
      throw new AppError("common.unauthorized", { reason: "revoked" });
    },
  });
  await assertRefused(await accessToken(), "revoked", checked);
  await assertRefused(await accessToken({ key: stranger.privateKey }), "invalid", checked);
  assert.equal(calls, 1);
});

Deno.test("issuedAtMs() takes iat_ms only within iat's second, else the second's start", () => {
  assert.equal(issuedAtMs(1_700_000_000, 1_700_000_000_250), 1_700_000_000_250);
  assert.equal(issuedAtMs(1_700_000_000, 1_700_000_000_999), 1_700_000_000_999);
  for (const bad of [1_700_000_001_000, 1_699_999_999_999, 1_700_000_000_000.5, "1700000000250"]) {
    assert.equal(issuedAtMs(1_700_000_000, bad), 1_700_000_000_000, String(bad));
  }
  assert.equal(issuedAtMs(1_700_000_000, undefined), 1_700_000_000_000);
});

Deno.test("createJwtVerifier() reads iat_ms into the principal's issuedAt", async () => {
  const iat = nowSeconds() - 60;
  const principal = await verifier.verify(
    await accessToken({ payload: profile({ iat_ms: iat * 1000 + 417 }) }),
  );
  assert.equal(principal.issuedAt, iat * 1000 + 417);
});

Deno.test("holdsKey() matches the key itself and key:role entries only", () => {
  assert.equal(holdsKey(["app:grid-monitoring"], "app:grid-monitoring"), true);
  assert.equal(holdsKey(["hes:default", "app:grid-monitoring:user"], "app:grid-monitoring"), true);
  assert.equal(holdsKey(["hes:um:admin"], "hes:um"), true);
  assert.equal(holdsKey(["app:grid-monitoring-x"], "app:grid-monitoring"), false);
  assert.equal(holdsKey(["app:grid-monitoring-x:admin"], "app:grid-monitoring"), false);
  assert.equal(holdsKey(["app:grid"], "app:grid-monitoring"), false);
  assert.equal(holdsKey([], "app:grid-monitoring"), false);
});

Deno.test("isAppAdmin() requires exactly key:admin", () => {
  assert.equal(isAppAdmin(["app:grid-monitoring:admin"], "app:grid-monitoring"), true);
  assert.equal(isAppAdmin(["hes:um:admin"], "hes:um"), true);
  assert.equal(isAppAdmin(["app:grid-monitoring:user"], "app:grid-monitoring"), false);
  assert.equal(isAppAdmin(["app:grid-monitoring"], "app:grid-monitoring"), false);
  assert.equal(isAppAdmin(["app:grid-monitoring-x:admin"], "app:grid-monitoring"), false);
});

Deno.test("userIdFromSub() drops the provider prefix and keeps bare ids", () => {
  assert.equal(userIdFromSub("gridwatch|3f0c-11"), "3f0c-11");
  assert.equal(userIdFromSub("3f0c-11"), "3f0c-11");
});

/** An API behind the shared shell: one app route and one admin-only route. */
function guardedApp(tokens: TokenVerifier = verifier) {
  const app = createHttpApp(createLogger("error"));
  const api = new Hono<AppEnv>();
  api.use(requireAuth(tokens));
  api.get(
    "/grid",
    requireApp("app:grid-monitoring"),
    (c) => c.json({ userId: c.get("principal").userId }),
  );
  api.get(
    "/grid-readers",
    requireApp(["hes:infrastructure-setup", "app:grid-monitoring"]),
    (c) => c.json({ ok: true }),
  );
  api.get(
    "/grid-settings",
    requireApp("app:grid-monitoring", { admin: true }),
    (c) => c.json({ ok: true }),
  );
  app.route("/api", api);
  return app;
}

async function call(path: string, authorization?: string) {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const res = await guardedApp().request(path, { headers });
  return { status: res.status, body: await res.json() };
}

function bearerWith(claims: JWTPayload): Promise<string> {
  return accessToken({ payload: profile(claims) }).then((t) => `Bearer ${t}`);
}

Deno.test("requireAuth() answers 401 common.unauthorized without an Authorization header", async () => {
  const { status, body } = await call("/api/grid");
  assert.equal(status, 401);
  assert.equal(body.key, "common.unauthorized");
  assert.equal("code" in body, false);
});

Deno.test("requireAuth() answers 401 for a non-Bearer or forged Authorization header", async () => {
  const token = await accessToken();
  for (
    const header of [
      `Basic ${btoa("admin:admin")}`,
      token,
      `Bearer ${token} extra`,
      `Bearer ${await accessToken({ expiresAt: nowSeconds() - 1 })}`,
      `Bearer ${await accessToken({ key: stranger.privateKey })}`,
    ]
  ) {
    const { status, body } = await call("/api/grid", header);
    assert.equal(status, 401, header);
    assert.equal(body.key, "common.unauthorized");
  }
});

Deno.test("requireApp() lets a holder of the app key through with its principal", async () => {
  const { status, body } = await call("/api/grid", `Bearer ${await accessToken()}`);
  assert.equal(status, 200);
  assert.deepEqual(body, { userId: "u-42" });
});

Deno.test("requireApp() answers 403 common.forbidden without a role for the app", async () => {
  for (const appsRoles of [["hes:default"], ["app:grid-monitoring-x:user"], []]) {
    const { status, body } = await call("/api/grid", await bearerWith({ apps_roles: appsRoles }));
    assert.equal(status, 403, appsRoles.join());
    assert.equal(body.key, "common.forbidden");
  }
});

Deno.test("requireApp([keys]) lets a holder of any of the keys through", async () => {
  const holder = await call(
    "/api/grid-readers",
    await bearerWith({ apps_roles: ["hes:infrastructure-setup:user"] }),
  );
  assert.equal(holder.status, 200);
  const other = await call("/api/grid-readers", await bearerWith({ apps_roles: ["hes:um:user"] }));
  assert.equal(other.status, 403);
  assert.equal(other.body.key, "common.forbidden");
});

Deno.test("requireApp({ admin }) answers 403 to a user role and lets the app admin through", async () => {
  const user = await call("/api/grid-settings", await bearerWith({ roles: ["admin"] }));
  assert.equal(user.status, 403);
  assert.equal(user.body.key, "common.forbidden");
  const admin = await call(
    "/api/grid-settings",
    await bearerWith({ apps_roles: ["app:grid-monitoring:admin"] }),
  );
  assert.equal(admin.status, 200);
});

Deno.test("requireApp({ admin }) lets a super-admin through without an app role", async () => {
  const { status } = await call(
    "/api/grid-settings",
    await bearerWith({ roles: ["super-admin"], apps_roles: [] }),
  );
  assert.equal(status, 200);
});
