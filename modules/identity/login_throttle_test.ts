import assert from "node:assert/strict";
import {
  ACCOUNT_POLICY,
  accountKey,
  ADDRESS_POLICY,
  addressKey,
  LoginThrottle,
  type ThrottleVerdict,
} from "./login_throttle.ts";

const EMAIL = "anna.admin@demo-ew.ch";
const IP = "198.51.100.7";

function throttleAt(clock: { now: number }, maxEntries?: number): LoginThrottle {
  return new LoginThrottle({ now: () => clock.now, ...(maxEntries ? { maxEntries } : {}) });
}

function blocked(v: ThrottleVerdict): { reason: string; scope: string; retryAfterMs: number } {
  assert.equal(v.allowed, false, "expected a blocked attempt");
  return v as { reason: string; scope: string; retryAfterMs: number };
}

Deno.test("LoginThrottle lets the first two failures through without a wait", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(throttle.check(EMAIL, IP), { allowed: true });
    assert.deepEqual(throttle.fail(EMAIL, IP).verdict, { allowed: true });
  }
});

Deno.test("LoginThrottle makes the account wait 1 s after the 3rd failure, doubling up to 30 s", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  const waits: number[] = [];
  for (let failure = 1; failure <= 9; failure++) {
    const { verdict } = throttle.fail(EMAIL, IP);
    if (failure < 3) continue;
    const v = blocked(verdict);
    assert.equal(v.reason, "wait");
    assert.equal(v.scope, "account");
    waits.push(v.retryAfterMs);
    clock.now += v.retryAfterMs - 1;
    assert.equal(throttle.check(EMAIL, IP).allowed, false, "1 ms before the end of the wait");
    clock.now += 1;
    assert.equal(throttle.check(EMAIL, IP).allowed, true, "at the end of the wait");
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
});

Deno.test("LoginThrottle locks the account for 15 minutes at the 10th failure, then it expires", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  for (let i = 1; i < ACCOUNT_POLICY.lockAfter; i++) throttle.fail(EMAIL, null);
  const outcome = throttle.fail(EMAIL, null);
  assert.deepEqual(outcome.locked, ["account"]);
  const v = blocked(outcome.verdict);
  assert.deepEqual([v.reason, v.scope, v.retryAfterMs], ["locked", "account", 15 * 60_000]);
  // Failures during the lockout do not extend it.
  assert.deepEqual(throttle.fail(EMAIL, null).locked, []);
  clock.now += 15 * 60_000 - 1;
  assert.equal(blocked(throttle.check(EMAIL, null)).reason, "locked");
  clock.now += 1;
  assert.deepEqual(throttle.check(EMAIL, null), { allowed: true });
  // After the lockout the account starts afresh: two free attempts again.
  throttle.fail(EMAIL, null);
  assert.deepEqual(throttle.check(EMAIL, null), { allowed: true });
});

Deno.test("LoginThrottle matches the account whatever the case and spaces of the e-mail", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  throttle.fail("Anna.Admin@demo-ew.ch", null);
  throttle.fail(" anna.admin@DEMO-EW.CH ", null);
  throttle.fail(EMAIL, null);
  assert.equal(blocked(throttle.check("ANNA.ADMIN@demo-ew.ch", null)).scope, "account");
  assert.equal(accountKey(" A@B.ch "), "a@b.ch");
});

Deno.test("LoginThrottle.clear() ends a lockout (an administrator set a new password)", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  for (let i = 0; i < ACCOUNT_POLICY.lockAfter; i++) throttle.fail(EMAIL, null);
  assert.equal(blocked(throttle.check(EMAIL, null)).reason, "locked");
  throttle.clear(EMAIL.toUpperCase());
  assert.deepEqual(throttle.check(EMAIL, null), { allowed: true });
});

Deno.test("LoginThrottle.succeed() forgets the account's failures but not the address's", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  for (let i = 0; i < ADDRESS_POLICY.delayAfter; i++) {
    clock.now += 60_000;
    throttle.fail(`user${i % 2}@demo-ew.ch`, IP);
  }
  throttle.succeed("user0@demo-ew.ch");
  const v = blocked(throttle.check("someone.else@demo-ew.ch", IP));
  assert.equal(v.scope, "address");
  assert.equal(v.reason, "wait");
});

Deno.test("LoginThrottle locks a client address after 30 failures over many accounts", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  let locked: string[] = [];
  for (let i = 0; i < ADDRESS_POLICY.lockAfter; i++) {
    locked = throttle.fail(`spray${i}@demo-ew.ch`, IP).locked;
    clock.now += 20_000;
  }
  assert.deepEqual(locked, ["address"]);
  const v = blocked(throttle.check("fresh@demo-ew.ch", IP));
  assert.deepEqual([v.reason, v.scope], ["locked", "address"]);
  assert.deepEqual(throttle.check("fresh@demo-ew.ch", "203.0.113.9"), { allowed: true });
  assert.deepEqual(throttle.check("fresh@demo-ew.ch", null), { allowed: true });
});

Deno.test("LoginThrottle forgets failures older than the 15-minute window", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock);
  throttle.fail(EMAIL, null);
  throttle.fail(EMAIL, null);
  clock.now += 15 * 60_000 + 1;
  throttle.fail(EMAIL, null);
  assert.deepEqual(throttle.check(EMAIL, null), { allowed: true });
});

Deno.test("LoginThrottle keeps at most maxEntries per scope and keeps lockouts over fresh failures", () => {
  const clock = { now: 1_000_000 };
  const throttle = throttleAt(clock, 100);
  for (let i = 0; i < ACCOUNT_POLICY.lockAfter; i++) throttle.fail(EMAIL, null);
  for (let i = 0; i < 5000; i++) throttle.fail(`spray${i}@x.example`, `10.0.${i >> 8}.${i & 255}`);
  assert.equal(throttle.size("account"), 100);
  assert.equal(throttle.size("address"), 100);
  assert.equal(blocked(throttle.check(EMAIL, null)).reason, "locked", "the lockout survived");
});

Deno.test("addressKey() keeps IPv4, unwraps IPv4-mapped IPv6 and groups IPv6 by /64", () => {
  assert.equal(addressKey("198.51.100.7"), "198.51.100.7");
  assert.equal(addressKey("::ffff:198.51.100.7"), "198.51.100.7");
  assert.equal(addressKey("2001:db8:a:b:1:2:3:4"), "2001:db8:a:b::/64");
  assert.equal(addressKey("2001:0db8:000a:000b::99"), "2001:db8:a:b::/64");
  assert.equal(addressKey("[2001:db8::1]"), "2001:db8:0:0::/64");
  assert.equal(addressKey("2001:db8::1"), addressKey("2001:db8:0:0:ffff::2"));
  assert.equal(addressKey("fe80::1%eth0"), "fe80:0:0:0::/64");
});
