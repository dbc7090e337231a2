import assert from "node:assert/strict";
import { fieldIssues } from "../../kernel/mod.ts";
import { profileInput } from "./contract.ts";

const keysOf = (input: unknown) => {
  const parsed = profileInput.safeParse(input);
  return parsed.success
    ? []
    : fieldIssues(parsed.error.issues, input).map((i) => `${i.path}:${i.key}`);
};
const valid = { name: "Control centre", ip_address: "10.0.0.5", port: 2404, asdu: 1 };

Deno.test("a valid profile gets the defaults", () => {
  const parsed = profileInput.parse(valid);
  assert.equal(parsed.activated, false);
  assert.equal(parsed.timers, undefined);
  assert.deepEqual(keysOf({ ...valid, ip_address: "fe80::1" }), []);
});

Deno.test("spec 5: IP address valid, TCP port required 1024-65535, ASDU 1-65534", () => {
  assert.deepEqual(keysOf({ ...valid, ip_address: "10.0.0.256" }), [
    "ip_address:validation.ipInvalid",
  ]);
  assert.deepEqual(keysOf({ ...valid, port: undefined }), ["port:validation.required"]);
  assert.deepEqual(keysOf({ ...valid, port: 1023 }), ["port:validation.tcpPort"]);
  assert.deepEqual(keysOf({ ...valid, port: 65536 }), ["port:validation.tcpPort"]);
  assert.deepEqual(keysOf({ ...valid, port: 2404.5 }), ["port:validation.integerOnly"]);
  assert.deepEqual(keysOf({ ...valid, asdu: 0 }), ["asdu:validation.scadaAsduRange"]);
  assert.deepEqual(keysOf({ ...valid, name: "ab" }), ["name:validation.nameMin"]);
});

Deno.test("timers: t2 < t1 and w <= 2/3 k", () => {
  const timers = { t0: 30, t1: 15, t2: 10, t3: 20, k: 12, w: 8 };
  assert.deepEqual(keysOf({ ...valid, timers }), []);
  assert.deepEqual(keysOf({ ...valid, timers: { ...timers, t2: 15 } }), [
    "timers.t2:validation.scadaT2BelowT1",
  ]);
  assert.deepEqual(keysOf({ ...valid, timers: { ...timers, w: 9 } }), [
    "timers.w:validation.scadaWWithinK",
  ]);
});
