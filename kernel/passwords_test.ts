import assert from "node:assert/strict";
import { hashPassword, verifyPassword } from "./passwords.ts";

Deno.test("hashPassword() produces an Argon2id PHC string with the OWASP profile", async () => {
  const hash = await hashPassword("Correct-Horse-7");
  assert.ok(hash.startsWith("$argon2id$"), hash);
  assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[^$]+\$[^$]+$/);
  assert.doesNotMatch(hash, /Correct-Horse-7/);
});

Deno.test("verifyPassword() accepts the right password and refuses any other", async () => {
  const hash = await hashPassword("Correct-Horse-7");
  assert.equal(await verifyPassword("Correct-Horse-7", hash), true);
  assert.equal(await verifyPassword("correct-horse-7", hash), false);
  assert.equal(await verifyPassword("Correct-Horse-7 ", hash), false);
  assert.equal(await verifyPassword("", hash), false);
});

Deno.test("verifyPassword() answers false for a malformed or foreign hash instead of throwing", async () => {
  const hash = await hashPassword("Correct-Horse-7");
  const malformed = [
    "",
    "Correct-Horse-7",
    "$argon2id$",
    "$argon2id$v=19$m=19456,t=2,p=1$garbage",
    hash.slice(0, -10),
    hash.replace("$argon2id$", "$argon2i$"),
    "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
  ];
  for (const stored of malformed) {
    assert.equal(await verifyPassword("Correct-Horse-7", stored), false, stored);
  }
});

Deno.test("hashPassword() salts each hash, so one password gives two different hashes", async () => {
  const [first, second] = await Promise.all([hashPassword("Same-1"), hashPassword("Same-1")]);
  assert.notEqual(first, second);
  assert.equal(await verifyPassword("Same-1", first), true);
  assert.equal(await verifyPassword("Same-1", second), true);
});
