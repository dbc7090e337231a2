import assert from "node:assert/strict";
import { hashSecret, newSecret, parseCredential, sameHash } from "./credentials.ts";

Deno.test("newSecret() gives 43 base64url characters (256 bits) that differ each time", () => {
  const a = newSecret();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, newSecret());
});

Deno.test("parseCredential() splits '<cell id>.<secret>' and refuses malformed credentials", () => {
  assert.deepEqual(parseCredential("C20260001.abcdefghijklmnopqrstuvwxyz"), {
    cellId: "C20260001",
    secret: "abcdefghijklmnopqrstuvwxyz",
  });
  for (
    const bad of [
      "",
      "C1",
      "C1.short",
      "C 1.abcdefghijklmnopqrstuvwxyz",
      "C1.abc/defghijklmnopqrstuvwxyz",
    ]
  ) {
    assert.equal(parseCredential(bad), null, bad);
  }
});

Deno.test("sameHash() compares hashes of a secret and refuses another secret's hash", async () => {
  const h = await hashSecret("secret-one");
  assert.equal(h.length, 64);
  assert.ok(sameHash(h, await hashSecret("secret-one")));
  assert.ok(!sameHash(h, await hashSecret("secret-two")));
  assert.ok(!sameHash(h, h.slice(1)));
});
