import assert from "node:assert/strict";
import { AppError, type Principal } from "../../kernel/mod.ts";
import { AccessRegistry } from "./access_registry.ts";
import { describeAccessChange } from "./access_store.ts";
import type { UserAccessChanged } from "./events.ts";
import type { UserRow } from "./schema.ts";

/** The instant of the change in the tests (ms). */
const T0 = Date.parse("2026-03-02T10:00:00.400Z");
const HOUR = 3_600_000;

/** A principal whose token was issued at `issuedAt` (ms). */
function principal(issuedAt: number, overrides: Partial<Principal> = {}): Principal {
  return {
    sub: "gridwatch|u-1",
    userId: "u-1",
    customer: "demo-ew",
    role: "admin",
    appsRoles: ["hes:default", "hes:um:admin", "app:grid-monitoring:admin"],
    language: "en",
    issuedAt,
    ...overrides,
  };
}

function change(overrides: Partial<UserAccessChanged> = {}): UserAccessChanged {
  return {
    userId: "u-1",
    customerKey: "demo",
    email: "anna@demo-ew.ch",
    at: new Date(T0).toISOString(),
    state: "active",
    role: "user",
    appsRoles: ["hes:default", "app:grid-monitoring:user"],
    revoked: false,
    rightsChanged: true,
    narrowed: true,
    passwordReset: false,
    ...overrides,
  };
}

const revocation = { revoked: true, rightsChanged: false, narrowed: false };

function assertRevoked(registry: AccessRegistry, p: Principal, message?: string): void {
  assert.throws(() => registry.apply(p), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 401);
    assert.deepEqual(error.toBody(), { key: "common.unauthorized", params: { reason: "revoked" } });
    return true;
  }, message);
}

function registryAt(clock: { now: number }): AccessRegistry {
  return new AccessRegistry({ horizonMs: HOUR, now: () => clock.now });
}

Deno.test("AccessRegistry.apply() leaves the principal of a user without changes as it is", () => {
  const registry = registryAt({ now: T0 });
  const p = principal(T0 - 100_000);
  assert.equal(registry.apply(p), p);
});

Deno.test("AccessRegistry.apply() gives a token issued before a demotion the current rights", () => {
  const registry = registryAt({ now: T0 });
  registry.record(change());
  const demoted = registry.apply(principal(T0 - 1));
  assert.equal(demoted.role, "user");
  assert.deepEqual(demoted.appsRoles, ["hes:default", "app:grid-monitoring:user"]);
  assert.equal(demoted.userId, "u-1");
});

Deno.test("AccessRegistry.apply() keeps a token issued after the change as it is, to the ms", () => {
  const registry = registryAt({ now: T0 });
  registry.record(change());
  const fresh = principal(T0 + 1, { role: "user", appsRoles: ["hes:default"] });
  assert.equal(registry.apply(fresh), fresh);
});

Deno.test("AccessRegistry.apply() refuses every token of a disabled or deleted user with 401", () => {
  for (const state of ["disabled", "deleted"] as const) {
    const registry = registryAt({ now: T0 });
    registry.record(change({ state, ...revocation }));
    assertRevoked(registry, principal(T0 - 10_000), state);
    // Even one that claims to be newer: no token can be issued to them while they are.
    assertRevoked(registry, principal(T0 + 10_000), state);
  }
});

Deno.test("AccessRegistry.apply() refuses tokens from before a disable after the user is enabled again", () => {
  const clock = { now: T0 };
  const registry = registryAt(clock);
  registry.record(change({ state: "disabled", ...revocation }));
  clock.now = T0 + 300;
  registry.record(
    change({
      state: "active",
      at: new Date(clock.now).toISOString(),
      revoked: false,
      rightsChanged: false,
      narrowed: false,
    }),
  );
  assertRevoked(registry, principal(T0 - 5000));
  assertRevoked(registry, principal(T0 - 1), "1 ms before the disable, in the same second");
  const after = principal(T0 + 301);
  assert.equal(registry.apply(after), after, "the login right after the enable");
});

Deno.test("AccessRegistry.apply() keeps a token issued right after a password reset", () => {
  const registry = registryAt({ now: T0 });
  registry.record(change({ ...revocation, passwordReset: true }));
  assertRevoked(registry, principal(T0 - 1));
  const p = principal(T0 + 1);
  assert.equal(registry.apply(p), p);
});

Deno.test("AccessRegistry.apply() counts a token with only iat from the start of its second", () => {
  // kernel issuedAtMs(): an external provider's token issued at 10:00:00.900 reads as .000.
  const registry = registryAt({ now: T0 });
  registry.record(change({ ...revocation, passwordReset: true }));
  assertRevoked(registry, principal(Math.floor(T0 / 1000) * 1000));
});

Deno.test("AccessRegistry.record() never moves a revocation back in time", () => {
  const registry = registryAt({ now: T0 });
  registry.record(change({ ...revocation }));
  registry.record(change({ at: new Date(T0 - 30_000).toISOString(), rightsChanged: true }));
  assert.equal(registry.entry("u-1")?.revokedBefore, T0);
  assertRevoked(registry, principal(T0 - 1));
});

Deno.test("AccessRegistry drops entries older than the horizon (every older token has expired)", () => {
  const clock = { now: T0 };
  const registry = registryAt(clock);
  registry.record(change({ state: "deleted", ...revocation }));
  registry.record(change({ userId: "u-2", at: new Date(T0 + HOUR / 2).toISOString() }));
  assert.equal(registry.size, 2);
  clock.now = T0 + HOUR + 1;
  registry.prune();
  assert.equal(registry.size, 1);
  assert.equal(registry.entry("u-1"), undefined);
  registry.restore("u-3", {
    state: "deleted",
    revokedBefore: T0,
    rightsChangedAt: 0,
    role: "user",
    appsRoles: [],
    changedAt: T0,
  });
  assert.equal(registry.entry("u-3"), undefined, "an old row read at start is not kept");
});

Deno.test("AccessRegistry.apply() treats a principal without an issue time as the oldest token", () => {
  const registry = registryAt({ now: T0 });
  registry.record(change({ ...revocation }));
  const { issuedAt: _, ...withoutIat } = principal(0);
  assertRevoked(registry, withoutIat);
});

const row = (overrides: Partial<UserRow> = {}): UserRow => ({
  id: "u-1",
  customerKey: "demo",
  email: "anna@demo-ew.ch",
  name: "Anna",
  phone: null,
  role: "admin",
  startPage: null,
  language: "en",
  appsRoles: ["hes:default", "hes:um:admin"],
  passwordHash: "x",
  userMetadata: {},
  appMetadata: {},
  latestLogin: null,
  disabled: false,
  createdAt: new Date(T0),
  ...overrides,
});
const at = new Date(T0);

Deno.test("describeAccessChange() marks a lower role or a removed apps_roles entry as narrowed", () => {
  const demoted = describeAccessChange(row(), { ...row(), role: "user" }, { at });
  assert.equal(demoted?.narrowed, true);
  assert.equal(demoted?.rightsChanged, true);
  assert.equal(demoted?.revoked, false);
  assert.equal(demoted?.role, "user");
  const lowered = describeAccessChange(
    row(),
    { ...row(), appsRoles: ["hes:default", "hes:um:user"] },
    { at },
  );
  assert.equal(lowered?.narrowed, true);
  const widened = describeAccessChange(
    row(),
    { ...row(), appsRoles: ["hes:default", "hes:um:admin", "app:grid-monitoring:user"] },
    { at },
  );
  assert.equal(widened?.narrowed, false);
  assert.equal(widened?.rightsChanged, true);
});

Deno.test("describeAccessChange() answers null when neither rights, state nor password changed", () => {
  assert.equal(describeAccessChange(row(), row(), { at }), null);
  const reordered = row({ appsRoles: ["hes:um:admin", "hes:default"] });
  assert.equal(describeAccessChange(row(), reordered, { at }), null);
});

Deno.test("describeAccessChange() revokes on disable, delete and an admin's password reset", () => {
  const disabled = describeAccessChange(row(), { ...row(), disabled: true }, { at });
  assert.deepEqual([disabled?.state, disabled?.revoked], ["disabled", true]);
  const deleted = describeAccessChange(row(), null, { at });
  assert.deepEqual([deleted?.state, deleted?.revoked, deleted?.role], ["deleted", true, "admin"]);
  const reset = describeAccessChange(row(), row(), { at, passwordReset: true });
  assert.deepEqual([reset?.state, reset?.revoked, reset?.passwordReset], ["active", true, true]);
  const enabled = describeAccessChange(row({ disabled: true }), row(), { at });
  assert.deepEqual([enabled?.state, enabled?.revoked], ["active", false]);
  assert.equal(enabled?.at, "2026-03-02T10:00:00.400Z");
});

Deno.test("describeAccessChange() revokes a kiosk's sign-in when its kiosk choice is removed", () => {
  const kiosk = row({ role: "user", appsRoles: ["hes:default"], appMetadata: { kiosk: true } });
  const ended = describeAccessChange(kiosk, { ...kiosk, appMetadata: {} }, { at });
  assert.equal(ended?.revoked, true);
  assert.equal(ended?.state, "active");
  assert.equal(describeAccessChange(kiosk, kiosk, { at }), null, "kept: nothing changes");
  const granted = describeAccessChange({ ...kiosk, appMetadata: {} }, kiosk, { at });
  assert.equal(granted, null, "granting the choice changes no token");
});
